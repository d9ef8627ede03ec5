// Holdings read model: vault accounts, addresses, the assets each address holds, and balance histories.
import type { VaultAccountEvent } from "../../domain/vault-account/index.js"
import { accountKey, addressKey, type AddressFacts, type VaultAccountChanges } from "../../domain/vault-account/index.js"
import { reserveOf } from "../../domain/ledger/index.js"
import type { StoredOf } from "../../events/stored-event.js"
import type { AddressKeys } from "../address-keys.js"
import { BalanceHistory, ZERO_BALANCE, type Balance } from "./histories.js"
import { CreationOrder, History } from "../storage/history.js"
import type { AsOf } from "../projection.js"
import type { WorkspaceModel } from "../workspace.js"

export { ZERO_BALANCE, type Balance } from "./histories.js"

export interface AccountProfile {
  readonly name: string
  readonly color: string
  readonly isHiddenInDashboard: boolean
  readonly isFavoriteInDashboard: boolean
}

export interface AccountView {
  readonly vaultId: string
  readonly vaultAccountId: string
  /** Creation values; `profile` follows later edits. */
  readonly name: string
  readonly color: string
  readonly isHiddenInDashboard: boolean
  /** Sequential number within the vault (its BIP44 account; 0 is the vault's default account). */
  readonly ordinal: number
  readonly createdAt: number
  readonly position: bigint
  readonly profile: History<AccountProfile>
}

export interface AddressView {
  readonly facts: AddressFacts
  readonly createdAt: number
  readonly position: bigint
  /** Asset id → position at which the address started to hold it. */
  readonly assets: Map<string, bigint>
}

const within = (p: bigint, asOf: AsOf) => asOf === undefined || p <= asOf

export const holdingsFoldTypes = [
  "VaultAccountCreated",
  "AddressDerived",
  "AssetAdded",
  "VaultAccountEdited",
] as const satisfies ReadonlyArray<VaultAccountEvent["type"]>

export class HoldingsModel {
  readonly accounts = new Map<string, AccountView>()
  readonly addresses = new Map<string, AddressView>()
  readonly addressesByVault = new Map<string, CreationOrder<AddressView>>()
  readonly accountsByVault = new Map<string, CreationOrder<AccountView>>()
  /** Vault id → the edits of its default account so far (that account has no creation event). */
  readonly defaultAccountEdits = new Map<string, History<VaultAccountChanges>>()
  /** Asset id → vault id → position at which the vault first held it. */
  readonly vaultsByAsset = new Map<string, Map<string, bigint>>()
  /** addressKey → asset id → history. */
  private readonly balances = new Map<string, Map<string, BalanceHistory>>()

  constructor(
    private readonly workspace: WorkspaceModel,
    private readonly keys: AddressKeys,
  ) {}

  account(id: string, asOf: AsOf): AccountView | undefined {
    const a = this.accounts.get(id)
    return a !== undefined && within(a.position, asOf) ? a : undefined
  }

  /** What the vault's default account was edited to at `asOf` (empty when never). */
  defaultAccountChanges(vaultId: string, asOf: AsOf): VaultAccountChanges {
    return this.defaultAccountEdits.get(vaultId)?.at(asOf) ?? {}
  }

  /** A vault's accounts in creation order. */
  vaultAccounts(vaultId: string, asOf: AsOf): ReadonlyArray<AccountView> {
    return this.accountsByVault.get(vaultId)?.upTo(asOf) ?? []
  }

  address(blockchain: string, network: string, address: string, asOf: AsOf): AddressView | undefined {
    const a = this.addresses.get(addressKey(blockchain, network, address))
    return a !== undefined && within(a.position, asOf) ? a : undefined
  }

  /** The address as named by an event of the log (its key is remembered: see AddressKeys). */
  addressInLog(blockchain: string, network: string, address: string): AddressView | undefined {
    return this.addresses.get(this.keys.of(blockchain, network, address))
  }

  vaultAddresses(vaultId: string, asOf: AsOf): ReadonlyArray<AddressView> {
    return this.addressesByVault.get(vaultId)?.upTo(asOf) ?? []
  }

  heldAssets(a: AddressView, asOf: AsOf): ReadonlyArray<string> {
    const out: Array<string> = []
    for (const [assetId, p] of a.assets) if (within(p, asOf)) out.push(assetId)
    return out
  }

  vaultsHolding(assetId: string, asOf: AsOf): ReadonlyArray<string> {
    const out: Array<string> = []
    for (const [vaultId, p] of this.vaultsByAsset.get(assetId) ?? []) if (within(p, asOf)) out.push(vaultId)
    return out
  }

  balance(blockchain: string, network: string, address: string, assetId: string, asOf: AsOf): Balance {
    return (
      this.balances
        .get(addressKey(blockchain, network, address))
        ?.get(assetId)
        ?.at(asOf) ?? ZERO_BALANCE
    )
  }

  /** Tron: the TRX an address has staked (frozen, or unfrozen and not yet withdrawn), part of its allocatedAmount. */
  staked(blockchain: string, network: string, address: string, assetId: string, asOf: AsOf): bigint {
    return (
      this.balances
        .get(addressKey(blockchain, network, address))
        ?.get(assetId)
        ?.stakedAt(asOf) ?? 0n
    )
  }

  balanceHistory(blockchain: string, network: string, address: string, assetId: string): BalanceHistory | undefined {
    return this.balances.get(addressKey(blockchain, network, address))?.get(assetId)
  }

  private historyInLog(blockchain: string, network: string, address: string, assetId: string): BalanceHistory {
    const key = this.keys.of(blockchain, network, address)
    let assets = this.balances.get(key)
    if (assets === undefined) this.balances.set(key, (assets = new Map()))
    let h = assets.get(assetId)
    if (h === undefined) assets.set(assetId, (h = new BalanceHistory(reserveOf(blockchain, network, assetId))))
    return h
  }

  /** Adds to the total and blocked amounts of an address named in the log, as of `position`. */
  adjustBalance(
    blockchain: string,
    network: string,
    address: string,
    assetId: string,
    position: bigint,
    total: bigint,
    blocked: bigint,
    staked = 0n,
  ): void {
    this.historyInLog(blockchain, network, address, assetId).adjust(position, total, blocked, staked)
  }

  /** Records a balance as it is (the audit's tests use it to corrupt a model on purpose). */
  setBalance(blockchain: string, network: string, address: string, assetId: string, position: bigint, b: Balance): void {
    this.historyInLog(blockchain, network, address, assetId).set(position, b)
  }

  private hold(a: AddressView, assetId: string, position: bigint): void {
    if (!a.assets.has(assetId)) a.assets.set(assetId, position)
    let vaults = this.vaultsByAsset.get(assetId)
    if (vaults === undefined) this.vaultsByAsset.set(assetId, (vaults = new Map()))
    if (!vaults.has(a.facts.vaultId)) vaults.set(a.facts.vaultId, position)
  }

  apply(event: StoredOf<(typeof holdingsFoldTypes)[number]>): void {
    switch (event.type) {
      case "VaultAccountCreated": {
        const { at, ...rest } = event.data
        const profile = new History<AccountProfile>()
        profile.set(event.position, {
          name: rest.name,
          color: rest.color,
          isHiddenInDashboard: rest.isHiddenInDashboard,
          isFavoriteInDashboard: false,
        })
        const view: AccountView = { ...rest, createdAt: at, position: event.position, profile }
        this.accounts.set(rest.vaultAccountId, view)
        let list = this.accountsByVault.get(rest.vaultId)
        if (list === undefined) this.accountsByVault.set(rest.vaultId, (list = new CreationOrder()))
        list.push(event.position, view)
        return
      }
      case "VaultAccountEdited": {
        const { vaultId, vaultAccountId, at: _a, ...changes } = event.data
        const view = this.accounts.get(vaultAccountId)
        if (view !== undefined) view.profile.set(event.position, { ...view.profile.latest()!, ...changes })
        else if (accountKey(vaultId, vaultAccountId) === null) {
          let edits = this.defaultAccountEdits.get(vaultId)
          if (edits === undefined) this.defaultAccountEdits.set(vaultId, (edits = new History()))
          edits.set(event.position, { ...edits.latest(), ...changes })
        }
        return
      }
      case "AddressDerived": {
        const key = this.keys.of(event.data.blockchain, event.data.network, event.data.address)
        if (this.addresses.has(key)) return
        const { at, ...facts } = event.data
        const view: AddressView = { facts, createdAt: at, position: event.position, assets: new Map() }
        this.addresses.set(key, view)
        let list = this.addressesByVault.get(facts.vaultId)
        if (list === undefined) this.addressesByVault.set(facts.vaultId, (list = new CreationOrder()))
        list.push(event.position, view)
        for (const assetId of facts.assetIds) this.hold(view, assetId, event.position)
        this.workspace.countAddress(facts.vaultId, facts.addressType === "change" ? "change" : "deposit", event.position)
        return
      }
      case "AssetAdded": {
        const a = this.addressInLog(event.data.blockchain, event.data.network, event.data.address)
        if (a !== undefined) this.hold(a, event.data.assetId, event.position)
        return
      }
      default:
        return
    }
  }
}
