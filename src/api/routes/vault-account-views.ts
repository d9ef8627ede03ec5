// Vault accounts as the 2026-03-20 endpoints read them: every vault's default account (its own id, its own
// addresses) first, then the accounts created in it; per account its addresses and the balances they add up to.
import { createHash } from "node:crypto"
import { findAsset } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import type { AccountProfile, AddressView, Balance } from "../../projections/holdings.js"
import type { AsOf } from "../../projections/projection.js"
import type { VaultRecord } from "../../projections/workspace.js"
import type { ApiDeps } from "../deps.js"
import { sumAll } from "./presenters.js"

/** The name the default vault account answers with (the service's own is not shown). */
export const DEFAULT_ACCOUNT_NAME = "Default"

export interface AccountRef {
  readonly vaultId: string
  readonly vaultAccountId: string
  readonly ordinal: number
  readonly createdAt: number
  readonly profile: AccountProfile
  readonly addresses: ReadonlyArray<AddressView>
}

/** The vault's accounts, default first; undefined when the vault does not exist at `asOf`. */
export const accountsOf = (deps: ApiDeps, vaultId: string, asOf: AsOf): ReadonlyArray<AccountRef> | undefined => {
  const vault = deps.sim.models.workspace.vault(vaultId, asOf)
  if (vault === undefined) return undefined
  const h = deps.sim.models.holdings
  const byAccount = new Map<string, Array<AddressView>>()
  for (const a of h.vaultAddresses(vaultId, asOf)) {
    const id = a.facts.vaultAccountId ?? vaultId
    const list = byAccount.get(id)
    if (list === undefined) byAccount.set(id, [a])
    else list.push(a)
  }
  return [
    defaultAccount(vault, byAccount.get(vaultId) ?? []),
    ...h.vaultAccounts(vaultId, asOf).map((v) => ({
      vaultId,
      vaultAccountId: v.vaultAccountId,
      ordinal: v.ordinal,
      createdAt: v.createdAt,
      profile: v.profile.at(asOf)!,
      addresses: byAccount.get(v.vaultAccountId) ?? [],
    })),
  ]
}

const defaultAccount = (vault: VaultRecord, addresses: ReadonlyArray<AddressView>): AccountRef => ({
  vaultId: vault.profile.vaultId,
  vaultAccountId: vault.profile.vaultId,
  ordinal: 0,
  createdAt: vault.createdAt,
  profile: { name: DEFAULT_ACCOUNT_NAME, color: vault.profile.color, isHiddenInDashboard: false, isFavoriteInDashboard: false },
  addresses,
})

export const findAccount = (deps: ApiDeps, vaultId: string, vaultAccountId: string, asOf: AsOf): AccountRef | undefined =>
  accountsOf(deps, vaultId, asOf)?.find((a) => a.vaultAccountId === vaultAccountId)

/** Per asset the account holds, its addresses' balances summed, in the order the assets were first held. */
export const accountHoldings = (deps: ApiDeps, account: AccountRef, asOf: AsOf): Map<string, Balance> => {
  const h = deps.sim.models.holdings
  const per = new Map<string, Array<Balance>>()
  for (const a of account.addresses)
    for (const assetId of h.heldAssets(a, asOf)) {
      const b = h.balance(a.facts.blockchain, a.facts.network, a.facts.address, assetId, asOf)
      const list = per.get(assetId)
      if (list === undefined) per.set(assetId, [b])
      else list.push(b)
    }
  return new Map([...per].map(([id, bs]) => [id, sumAll(bs)]))
}

/** The vault account object, named as 2024-05-09 names its first fields (wire/vault-accounts.ts writes each version). */
export const accountValue = (deps: ApiDeps, account: AccountRef, asOf: AsOf) => ({
  vaultAccountId: account.vaultAccountId,
  name: account.profile.name,
  vaultId: account.vaultId,
  color: account.profile.color,
  isHiddenInDashboard: account.profile.isHiddenInDashboard,
  isFavoriteInDashboard: account.profile.isFavoriteInDashboard,
  index: account.ordinal,
  createdTimestamp: toUnixSeconds(account.createdAt as SimInstant),
  addressesCount: account.addresses.length,
  balances: [...accountHoldings(deps, account, asOf)].flatMap(([id, b]) => {
    const asset = findAsset(id)
    if (asset === undefined) return []
    return [
      {
        assetId: asset.id,
        assetName: asset.name,
        symbol: asset.symbol,
        blockchain: asset.blockchain,
        exchangeRateUnit: "USD",
        latestExchangeRateToUSD: deps.sim.models.settings.rateOf(asset.symbol, asOf),
        totalAmount: formatAmount(b.total, asset.decimals),
      },
    ]
  }),
})

/** An address's opaque id: stable, derived from its chain, network and canonical form. */
export const addressId = (a: AddressView): string =>
  createHash("sha256").update(`${a.facts.blockchain}|${a.facts.network}|${a.facts.address}`).digest("hex").slice(0, 24)
