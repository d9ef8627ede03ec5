// Vault accounts as the 2026-03-20 endpoints read them: every vault's default account (its own id, its own
// addresses) first, then the accounts created in it; per account its addresses and the balances they add up to.
import { createHash } from "node:crypto"
import { findAsset } from "../../domain/chains/index.js"
import { accountIdOf, accountKey, DEFAULT_ACCOUNT_NAME } from "../../domain/vault-account/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import type { AccountProfile, AddressView, Balance } from "../../projections/balances/holdings.js"
import type { AsOf } from "../../projections/projection.js"
import type { VaultRecord } from "../../projections/workspace.js"
import type { ApiDeps } from "../deps.js"
import { sumAll } from "./balances.js"

export interface AccountRef {
  readonly vaultId: string
  readonly vaultAccountId: string
  readonly ordinal: number
  readonly createdAt: number
  readonly profile: AccountProfile
  readonly addresses: ReadonlyArray<AddressView>
}

/** An account of the listing: the vault's default one, or one created in it. */
interface Listed {
  readonly vaultAccountId: string
  readonly ordinal: number
  readonly createdAt: number
  readonly profile: { readonly at: (asOf: AsOf) => AccountProfile | undefined }
}

/** The default account: the vault's colour and the default name, with the edits made to it by `asOf`. */
const defaultListed = (deps: ApiDeps, vault: VaultRecord): Listed => {
  const vaultId = vault.profile.vaultId
  const base: AccountProfile = {
    name: DEFAULT_ACCOUNT_NAME,
    color: vault.profile.color,
    isHiddenInDashboard: false,
    isFavoriteInDashboard: false,
  }
  return {
    vaultAccountId: vaultId,
    ordinal: 0,
    createdAt: vault.createdAt,
    profile: { at: (asOf) => ({ ...base, ...deps.reads.defaultAccountChanges(vaultId, asOf) }) },
  }
}

const refOf = (vaultId: string, listed: Listed, asOf: AsOf, addresses: ReadonlyArray<AddressView>): AccountRef => ({
  vaultId,
  vaultAccountId: listed.vaultAccountId,
  ordinal: listed.ordinal,
  createdAt: listed.createdAt,
  profile: listed.profile.at(asOf)!,
  addresses,
})

/** A vault's addresses at `asOf` by account (the vault's own under the vault id): one pass over them. */
const addressesByAccount = (deps: ApiDeps, vaultId: string, asOf: AsOf): Map<string, Array<AddressView>> => {
  const byAccount = new Map<string, Array<AddressView>>()
  for (const a of deps.reads.vaultAddresses(vaultId, asOf)) {
    const id = accountIdOf(a.facts)
    const list = byAccount.get(id)
    if (list === undefined) byAccount.set(id, [a])
    else list.push(a)
  }
  return byAccount
}

/**
 * The vault's accounts, default first, each read only when asked for (a page of a 10,000-account vault reads 50).
 */
export interface VaultAccounts {
  readonly ids: ReadonlyArray<Listed>
  readonly ref: (listed: Listed) => AccountRef
}

export const vaultAccountsOf = (deps: ApiDeps, vault: VaultRecord, asOf: AsOf): VaultAccounts => {
  const vaultId = vault.profile.vaultId
  let grouped: Map<string, Array<AddressView>> | undefined
  return {
    ids: [defaultListed(deps, vault), ...deps.reads.vaultAccounts(vaultId, asOf)],
    ref: (listed) => refOf(vaultId, listed, asOf, (grouped ??= addressesByAccount(deps, vaultId, asOf)).get(listed.vaultAccountId) ?? []),
  }
}

/**
 * One account of the vault (found by `inputs/parties.ts`'s `vaultAt`) at `asOf`, looked up directly; its addresses
 * are the vault's that name it.
 */
export const findAccount = (deps: ApiDeps, vault: VaultRecord, vaultAccountId: string, asOf: AsOf): AccountRef | undefined => {
  const vaultId = vault.profile.vaultId
  const created = deps.reads.account(vaultAccountId, asOf)
  const listed: Listed | undefined =
    accountKey(vaultId, vaultAccountId) === null ? defaultListed(deps, vault) : created?.vaultId === vaultId ? created : undefined
  if (listed === undefined) return undefined
  const addresses = deps.reads.vaultAddresses(vaultId, asOf).filter((a) => accountIdOf(a.facts) === vaultAccountId)
  return refOf(vaultId, listed, asOf, addresses)
}

/** Per asset the account holds, its addresses' balances summed, in the order the assets were first held. */
export const accountHoldings = (deps: ApiDeps, account: AccountRef, asOf: AsOf): Map<string, Balance> => {
  const h = deps.reads
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
        latestExchangeRateToUSD: deps.reads.rate(asset.symbol, asOf),
        totalAmount: formatAmount(b.total, asset.decimals),
      },
    ]
  }),
})

/** An address's opaque id: stable, derived from its chain, network and canonical form. */
export const addressId = (a: AddressView): string =>
  createHash("sha256").update(`${a.facts.blockchain}|${a.facts.network}|${a.facts.address}`).digest("hex").slice(0, 24)
