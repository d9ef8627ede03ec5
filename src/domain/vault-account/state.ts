// Account state of a vault: accounts, addresses (by chain and network), assets per address.
import type { AssetId, VaultAccountId } from "../shared/ids.js"
import type { AddressFacts, VaultAccountChanges } from "./events.js"

/** The name the vault's default account has until it is edited (the service's own is not shown). */
export const DEFAULT_ACCOUNT_NAME = "Default"

/**
 * The one rule for a vault account named by a request: the vault's own id names its default account, whose
 * addresses are the vault's own (`vaultAccountId: null` in the events); any other id an account created in it.
 */
export const accountKey = (vaultId: string, vaultAccountId: string): VaultAccountId | null =>
  vaultAccountId === vaultId ? null : (vaultAccountId as VaultAccountId)

/** The id of the account an address belongs to, as requests name it (the vault's id for its own addresses). */
export const accountIdOf = (facts: Pick<AddressFacts, "vaultId" | "vaultAccountId">): string => facts.vaultAccountId ?? facts.vaultId

export interface AccountRecord {
  readonly vaultAccountId: VaultAccountId
  readonly ordinal: number
  readonly name: string
  readonly color: string
  readonly isHiddenInDashboard: boolean
  readonly isFavoriteInDashboard?: boolean
  readonly createdAt: number
}

export interface AddressRecord extends AddressFacts {
  readonly assets: Set<AssetId>
  readonly createdAt: number
}

/**
 * Mutable on purpose: a vault may hold thousands of addresses, and copying the maps per event would make a
 * fold quadratic. Only `evolve` writes it, after the events were appended; `decide` only reads.
 */
export class VaultAccounts {
  readonly accounts = new Map<string, AccountRecord>()
  readonly addresses = new Map<string, AddressRecord>()
  /** (account or "", blockchain, network, change) → addresses in derivation order. */
  readonly branches = new Map<string, Array<AddressRecord>>()
  /** The edits of the vault's default account (it has no creation event: its profile starts from the vault's). */
  defaultChanges: VaultAccountChanges = {}

  /** Whether the account a request names exists (the default account always does). */
  has(key: VaultAccountId | null): boolean {
    return key === null || this.accounts.has(key)
  }

  get nextOrdinal(): number {
    return this.accounts.size + 1
  }

  address(blockchain: string, network: string, address: string): AddressRecord | undefined {
    return this.addresses.get(addressKey(blockchain, network, address))
  }

  branch(vaultAccountId: string | null, blockchain: string, network: string, change: 0 | 1): ReadonlyArray<AddressRecord> {
    return this.branches.get(branchKey(vaultAccountId, blockchain, network, change)) ?? []
  }

  /** Index the next derived address of that branch takes. */
  nextIndex(vaultAccountId: string | null, blockchain: string, network: string, change: 0 | 1): number {
    return this.branch(vaultAccountId, blockchain, network, change).length
  }

  /** The account's addresses on a chain and network, deposit branch first. */
  addressesOf(vaultAccountId: string | null, blockchain: string, network: string): ReadonlyArray<AddressRecord> {
    return [...this.branch(vaultAccountId, blockchain, network, 0), ...this.branch(vaultAccountId, blockchain, network, 1)]
  }
}

export const branchKey = (vaultAccountId: string | null, blockchain: string, network: string, change: 0 | 1) =>
  `${vaultAccountId ?? ""}|${blockchain}|${network}|${change}`

const HEX40 = /^0x[0-9a-fA-F]{40}$/

/** Case-insensitive formats (hex, bech32, cashaddr) compare lower-cased; cashaddr with or without its prefix. */
export const canonicalAddress = (address: string): string => {
  // Hex first (the most common, and on hot paths): "0x" and 40 characters; the rest is checked by the regex.
  if (address.length === 42 && address.charCodeAt(0) === 48 && address.charCodeAt(1) === 120 && HEX40.test(address))
    return address.toLowerCase()
  const a = address.trim()
  if (HEX40.test(a)) return a.toLowerCase()
  const cash = /^(bitcoincash|bchtest|bchreg):(.+)$/i.exec(a)
  if (cash !== null) return cash[2]!.toLowerCase()
  if (/^(bc|tb|bcrt|ltc|tltc)1[02-9ac-hj-np-z]+$/i.test(a)) return a.toLowerCase()
  if (/^[qp][02-9ac-hj-np-z]{41}$/i.test(a)) return a.toLowerCase()
  return a
}

export const addressKey = (blockchain: string, network: string, address: string) => `${blockchain}|${network}|${canonicalAddress(address)}`

export type VaultAccountError =
  | { readonly _tag: "VaultAccountNotFound"; readonly vaultAccountId: string }
  | { readonly _tag: "VaultAccountAlreadyExists"; readonly vaultAccountId: string }
  | { readonly _tag: "NetworkNotAllowedForVault"; readonly networkType: "main" | "test" }
  | { readonly _tag: "AddressNotHeld"; readonly address: string; readonly blockchain: string; readonly network: string }
  | { readonly _tag: "AddressHoldsAnotherAsset"; readonly address: string }
  | { readonly _tag: "AssetAlreadyAdded"; readonly vaultAccountId: string; readonly assetId: string; readonly address: string }
