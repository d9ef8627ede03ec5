// Use cases of endpoints #3, #4 and #6: create a vault account, add an asset, generate a deposit address.
import { Effect } from "effect"
import { findAsset, findNetwork, isUtxo, type NetworkInfo } from "../domain/chains/index.js"
import type { AssetId, VaultAccountId, VaultId } from "../domain/shared/ids.js"
import { accountKey, type AssetRef, type NetworkRef, type VaultAccountChanges } from "../domain/vault-account/index.js"
import { vaultDecider, vaultStream, type VaultState } from "../domain/vault/index.js"
import { runDecider, runDeciderWith } from "./run-decider.js"
import { AddressDerivation, Ids, SimClock } from "./services.js"

export const networkRef = (n: NetworkInfo): NetworkRef => ({
  blockchain: n.blockchain,
  network: n.network,
  networkType: n.networkType,
  utxo: n.family === "utxo",
  nativeAssetId: n.nativeAssetId,
})

export const assetRef = (assetId: string): AssetRef | undefined => {
  const a = findAsset(assetId)
  if (a === undefined) return undefined
  return {
    id: a.id,
    blockchain: a.blockchain,
    network: a.network,
    networkType: a.networkType,
    utxo: isUtxo(a.blockchain),
    native: a.type === "COIN",
  }
}

export const createVaultAccount = Effect.fn("createVaultAccount")(function* (
  vaultId: VaultId,
  input: { name: string; color: string; isHiddenInDashboard: boolean },
) {
  const now = yield* (yield* SimClock).now
  const vaultAccountId = (yield* (yield* Ids).next("vaultAccount")) as VaultAccountId
  const r = yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "CreateVaultAccount", vaultAccountId, ...input, now })
  return { ...r, vaultAccountId }
})

export const editVaultAccount = Effect.fn("editVaultAccount")(function* (
  vaultId: VaultId,
  vaultAccountId: VaultAccountId,
  changes: VaultAccountChanges,
) {
  const now = yield* (yield* SimClock).now
  return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "EditVaultAccount", vaultAccountId, changes, now })
})

const ordinalOf = (s: VaultState, vaultAccountId: string | null): number =>
  vaultAccountId === null || s._tag !== "Active" ? 0 : (s.accounts.accounts.get(vaultAccountId)?.ordinal ?? 0)

const deriveNext = (vaultId: VaultId, s: VaultState, vaultAccountId: string | null, blockchain: string, network: string) =>
  Effect.gen(function* () {
    const derivation = yield* AddressDerivation
    const index = s._tag === "Active" ? s.accounts.nextIndex(vaultAccountId, blockchain, network, 0) : 0
    const d = derivation.derive(vaultId, blockchain, network, { account: ordinalOf(s, vaultAccountId), change: 0, index })
    return { ...d, index }
  })

export type AddAssetTarget = { readonly label: string } | { readonly address: string }

/** The caller has checked that the asset exists. Returns the address the asset is held at. */
export const addAsset = Effect.fn("addAsset")(function* (
  vaultId: VaultId,
  vaultAccountId: VaultAccountId,
  assetId: AssetId,
  target: AddAssetTarget,
  whenHeld: "accept" | "refuse" = "accept",
) {
  const asset = assetRef(assetId)!
  const network = findNetwork(asset.blockchain, asset.network)!
  const now = yield* (yield* SimClock).now
  // The default account (the vault's id) derives on the vault's own branch.
  const key = accountKey(vaultId, vaultAccountId)
  const r = yield* runDeciderWith(vaultDecider, vaultStream(vaultId), (s) =>
    Effect.gen(function* () {
      const t =
        "address" in target
          ? ({ _tag: "Address", address: target.address } as const)
          : ({ _tag: "Label", label: target.label, derived: yield* deriveNext(vaultId, s, key, asset.blockchain, asset.network) } as const)
      return {
        type: "AddAsset" as const,
        vaultAccountId,
        asset,
        nativeAssetId: network.nativeAssetId,
        target: t,
        ...(whenHeld === "refuse" ? { whenHeld } : {}),
        now,
      }
    }),
  )
  const s = r.state
  const holder =
    s._tag === "Active" ? s.accounts.addressesOf(key, asset.blockchain, asset.network).find((a) => a.assets.has(asset.id)) : undefined
  return { ...r, address: holder! }
})

export const generateAddress = Effect.fn("generateAddress")(function* (
  vaultId: VaultId,
  network: NetworkInfo,
  label: string,
  vaultAccountId: VaultAccountId | null,
) {
  const now = yield* (yield* SimClock).now
  const key = vaultAccountId === null ? null : accountKey(vaultId, vaultAccountId)
  const r = yield* runDeciderWith(vaultDecider, vaultStream(vaultId), (s) =>
    Effect.gen(function* () {
      const derived = yield* deriveNext(vaultId, s, key, network.blockchain, network.network)
      return { type: "GenerateAddress" as const, vaultAccountId, network: networkRef(network), label, derived, now }
    }),
  )
  const e = r.events[0]
  const address = e !== undefined && e.type === "AddressDerived" ? e.data : undefined
  return { ...r, address: address! }
})
