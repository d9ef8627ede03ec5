// Rules of the spec for accounts: assets are added explicitly (native coins too) except on UTXO chains,
// where the native coin comes with the address and an address holds exactly that one asset.
import { absurd, accept, reject, type Decision } from "../shared/decider.js"
import type { VaultAccountCommand } from "./commands.js"
import type { AddressFacts, VaultAccountChanges, VaultAccountEvent } from "./events.js"
import { accountKey, DEFAULT_ACCOUNT_NAME, type VaultAccountError, type VaultAccounts } from "./state.js"
import type { VaultId } from "../shared/ids.js"

type Result = Decision<VaultAccountEvent, VaultAccountError>

export const decideAccounts = (
  c: VaultAccountCommand,
  vault: { vaultId: VaultId; type: "main" | "test"; color: string },
  s: VaultAccounts,
): Result => {
  switch (c.type) {
    case "CreateVaultAccount":
      if (s.accounts.has(c.vaultAccountId)) return reject({ _tag: "VaultAccountAlreadyExists", vaultAccountId: c.vaultAccountId })
      return accept({
        type: "VaultAccountCreated",
        data: {
          vaultId: vault.vaultId,
          vaultAccountId: c.vaultAccountId,
          ordinal: s.nextOrdinal,
          name: c.name,
          color: c.color,
          isHiddenInDashboard: c.isHiddenInDashboard,
          at: c.now,
        },
      })
    case "EditVaultAccount": {
      const key = accountKey(vault.vaultId, c.vaultAccountId)
      const account = key === null ? defaultProfile(vault.color, s) : s.accounts.get(key)
      if (account === undefined) return reject({ _tag: "VaultAccountNotFound", vaultAccountId: c.vaultAccountId })
      const current: Required<VaultAccountChanges> = { ...account, isFavoriteInDashboard: account.isFavoriteInDashboard ?? false }
      const changed = Object.fromEntries(
        Object.entries(c.changes).filter(([k, v]) => v !== undefined && current[k as keyof VaultAccountChanges] !== v),
      )
      if (Object.keys(changed).length === 0) return accept()
      return accept({
        type: "VaultAccountEdited",
        data: { vaultId: vault.vaultId, vaultAccountId: c.vaultAccountId, ...changed, at: c.now },
      })
    }
    case "GenerateAddress": {
      const key = c.vaultAccountId === null ? null : accountKey(vault.vaultId, c.vaultAccountId)
      if (!s.has(key)) return reject({ _tag: "VaultAccountNotFound", vaultAccountId: c.vaultAccountId! })
      if (c.network.networkType !== vault.type) return reject({ _tag: "NetworkNotAllowedForVault", networkType: c.network.networkType })
      // The vault's own addresses (the default account's) hold the native coin from the start, as they always have.
      const native = c.network.utxo || key === null
      return accept(
        derivedEvent(
          vault.vaultId,
          key,
          c.network.blockchain,
          c.network.network,
          c.derived,
          c.label,
          native ? [c.network.nativeAssetId] : [],
          c.now,
        ),
      )
    }
    case "AddAsset": {
      const key = accountKey(vault.vaultId, c.vaultAccountId)
      if (!s.has(key)) return reject({ _tag: "VaultAccountNotFound", vaultAccountId: c.vaultAccountId })
      const { asset } = c
      if (asset.networkType !== vault.type) return reject({ _tag: "NetworkNotAllowedForVault", networkType: asset.networkType })
      const held = s.addressesOf(key, asset.blockchain, asset.network)
      if (c.target._tag === "Address") {
        const target = c.target.address
        const record = held.find((a) => a === s.address(asset.blockchain, asset.network, target))
        if (record === undefined)
          return reject({ _tag: "AddressNotHeld", address: target, blockchain: asset.blockchain, network: asset.network })
        if (record.assets.has(asset.id)) return alreadyHeld(c, record.address)
        if (asset.utxo) return reject({ _tag: "AddressHoldsAnotherAsset", address: record.address })
        return accept(assetAdded(vault.vaultId, c.vaultAccountId, asset, record.address, c.now))
      }
      const first = held[0]
      if (first === undefined) {
        // A UTXO address holds its coin, and one of the vault's own its native coin, from derivation.
        const attached = asset.utxo ? [asset.id] : key === null ? [c.nativeAssetId] : []
        const derived = derivedEvent(vault.vaultId, key, asset.blockchain, asset.network, c.target.derived, c.target.label, attached, c.now)
        return attached.includes(asset.id)
          ? accept<VaultAccountEvent>(derived)
          : accept<VaultAccountEvent>(derived, assetAdded(vault.vaultId, c.vaultAccountId, asset, derived.data.address, c.now))
      }
      // The account already has an address on this chain: the asset goes to it (UTXO: it already holds the coin).
      const holder = held.find((a) => a.assets.has(asset.id))
      if (holder !== undefined || asset.utxo) return alreadyHeld(c, (holder ?? first).address)
      return accept(assetAdded(vault.vaultId, c.vaultAccountId, asset, first.address, c.now))
    }
    default:
      return absurd(c)
  }
}

/** The default account's profile: the vault's colour and the default name, as edited since. */
const defaultProfile = (color: string, s: VaultAccounts) => ({
  name: DEFAULT_ACCOUNT_NAME,
  color,
  isHiddenInDashboard: false,
  isFavoriteInDashboard: false,
  ...s.defaultChanges,
})

/** The asset is already on the account: a no-op, or a refusal when the command asks for one. */
const alreadyHeld = (c: Extract<VaultAccountCommand, { type: "AddAsset" }>, address: string): Result =>
  c.whenHeld === "refuse" ? reject({ _tag: "AssetAlreadyAdded", vaultAccountId: c.vaultAccountId, assetId: c.asset.id, address }) : accept()

const derivedEvent = (
  vaultId: VaultId,
  vaultAccountId: AddressFacts["vaultAccountId"],
  blockchain: string,
  network: string,
  derived: { address: string; derivationPath: string; index: number },
  label: string,
  assetIds: AddressFacts["assetIds"],
  at: import("../shared/sim-time.js").SimInstant,
) =>
  ({
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId,
      blockchain,
      network,
      address: derived.address,
      derivationPath: derived.derivationPath,
      change: 0,
      index: derived.index,
      label,
      addressType: "deposit",
      assetIds,
      at,
    },
  }) as const

const assetAdded = (
  vaultId: VaultId,
  vaultAccountId: import("../shared/ids.js").VaultAccountId,
  asset: { id: import("../shared/ids.js").AssetId; blockchain: string; network: string },
  address: string,
  at: import("../shared/sim-time.js").SimInstant,
) =>
  ({
    type: "AssetAdded",
    data: { vaultId, vaultAccountId, assetId: asset.id, blockchain: asset.blockchain, network: asset.network, address, at },
  }) as const
