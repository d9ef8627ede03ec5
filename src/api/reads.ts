// The read side as the endpoints see it: one query interface over the read models, by vault, account, address,
// asset and request, every read as of a position (`asOf`; undefined: now). Built once per simulator (`deps.reads`),
// so an endpoint, presenter or input decoder asks these questions and never reaches into the simulator object or
// the models' storage. Whether a vault, account or address a request names exists is decided on top of it, in
// inputs/parties.ts.
import type { SimInstant } from "../domain/shared/sim-time.js"
import type { HoldingsModel } from "../projections/balances/holdings.js"
import type { ChainsModel } from "../projections/chains.js"
import type { AsOf } from "../projections/projection.js"
import type { SettingsModel } from "../projections/settings.js"
import type { TransactionsModel } from "../projections/transactions.js"
import type { RequestView, TxRequestsModel } from "../projections/transaction-requests.js"
import type { TronModel } from "../projections/tron.js"
import type { UtxosModel } from "../projections/utxos.js"
import type { WorkspaceModel } from "../projections/workspace.js"
import type { Simulator } from "../runtime/simulator.js"

// The read models' value types an endpoint names, so that endpoint modules import the query layer, not projections/.
export type { AsOf } from "../projections/projection.js"
export type { AddressView, Balance } from "../projections/balances/holdings.js"
export type { ApiKeyRecord, VaultRecord } from "../projections/workspace.js"

type TronBandwidthUse = NonNullable<ReturnType<TxRequestsModel["tronBandwidth"]["get"]>>

export interface Reads {
  /** Now on the simulated clock. */
  readonly now: () => SimInstant
  /** The simulated time of the world at `asOf`: now (never before the last event) when undefined, else when it was written. */
  readonly timeOf: (asOf: AsOf) => number

  /** The vault at `asOf`; undefined when it did not exist then. */
  readonly vault: WorkspaceModel["vault"]
  /** Every vault at `asOf`, in creation order. */
  readonly vaults: WorkspaceModel["vaultList"]

  /** A vault account created by its own event (not a vault's default account), at `asOf`. */
  readonly account: HoldingsModel["account"]
  readonly vaultAccounts: HoldingsModel["vaultAccounts"]
  /** The edits of a vault's default account (its name, colour, flags) at `asOf`. */
  readonly defaultAccountChanges: HoldingsModel["defaultAccountChanges"]

  /** An address on a chain, whoever holds it, at `asOf`. */
  readonly address: HoldingsModel["address"]
  readonly vaultAddresses: HoldingsModel["vaultAddresses"]
  /** The assets an address holds (has added or been credited) at `asOf`. */
  readonly heldAssets: HoldingsModel["heldAssets"]
  readonly balance: HoldingsModel["balance"]
  readonly staked: HoldingsModel["staked"]

  /** An asset's exchange rate to USD at `asOf`. */
  readonly rate: SettingsModel["rateOf"]

  readonly transactions: TransactionsModel["list"]
  readonly transaction: TransactionsModel["find"]
  readonly txRequest: TxRequestsModel["find"]
  /** The request that broadcast a chain transaction, if one did. */
  readonly txRequestOf: (transactionId: string) => RequestView | undefined
  readonly utxos: UtxosModel["list"]

  /** What a fee payer used of the day's free units, at `now` (the fee estimate's and the draft's state). */
  readonly feeState: TxRequestsModel["feeStateAt"]
  /** A tron address's bandwidth uses, every one recorded (the overview filters them by time and position). */
  readonly tronBandwidth: (address: string) => TronBandwidthUse
  readonly tronLedger: TronModel["ledger"]
  readonly chainHeight: ChainsModel["heightAt"]
}

/** The query interface over one simulator's read models (they are folded in place, so it is built once). */
export const readsOf = (sim: Simulator): Reads => {
  const m = sim.models
  return {
    now: () => sim.clock.now(),
    timeOf: (asOf) =>
      asOf === undefined ? Math.max(sim.clock.now(), m.timeline.headTime) : asOf < 0n ? 0 : (m.timeline.timeAt(asOf) ?? sim.clock.now()),
    vault: (id, asOf) => m.workspace.vault(id, asOf),
    vaults: (asOf) => m.workspace.vaultList(asOf),
    account: (id, asOf) => m.holdings.account(id, asOf),
    vaultAccounts: (vaultId, asOf) => m.holdings.vaultAccounts(vaultId, asOf),
    defaultAccountChanges: (vaultId, asOf) => m.holdings.defaultAccountChanges(vaultId, asOf),
    address: (blockchain, network, address, asOf) => m.holdings.address(blockchain, network, address, asOf),
    vaultAddresses: (vaultId, asOf) => m.holdings.vaultAddresses(vaultId, asOf),
    heldAssets: (a, asOf) => m.holdings.heldAssets(a, asOf),
    balance: (blockchain, network, address, assetId, asOf) => m.holdings.balance(blockchain, network, address, assetId, asOf),
    staked: (blockchain, network, address, assetId, asOf) => m.holdings.staked(blockchain, network, address, assetId, asOf),
    rate: (symbol, asOf) => m.settings.rateOf(symbol, asOf),
    transactions: (vaultId, asOf) => m.transactions.list(vaultId, asOf),
    transaction: (vaultId, transactionId, asOf) => m.transactions.find(vaultId, transactionId, asOf),
    txRequest: (id, asOf) => m.txRequests.find(id, asOf),
    txRequestOf: (transactionId) => m.txRequests.byTransactionId.get(transactionId),
    utxos: (vaultId, asOf) => m.utxos.list(vaultId, asOf),
    feeState: (address, now) => m.txRequests.feeStateAt(address, now),
    tronBandwidth: (address) => m.txRequests.tronBandwidth.get(address) ?? [],
    tronLedger: (chain, asOf) => m.tron.ledger(chain, asOf),
    chainHeight: (chain, at, asOf) => m.chains.heightAt(chain, at, asOf),
  }
}
