// Withdrawal process manager: records each broadcast request mined (debiting the vault with the fee actually
// paid), then successful after the required confirmations, crediting recipients that are workspace addresses.
import { Effect } from "effect"
import { findAsset, findNetwork, type NetworkInfo } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"
import type { TxRequestError, TxRequestStatus } from "../domain/transaction-request/index.js"
import { spending } from "../domain/transaction-request/spending.js"
import { vaultDecider, vaultStream } from "../domain/vault/index.js"
import { runDecider } from "../commands/run-decider.js"
import { SimClock } from "../commands/services.js"
import type { ReadModels } from "../projections/read-models.js"
import type { RequestView } from "../projections/transaction-requests.js"
import { creditByVault, type Deposit } from "./deposits.js"
import { catchUp, Models, sync } from "./read-models.js"

const isIllegalFrom = (past: ReadonlyArray<TxRequestStatus>) => (e: { readonly _tag: string }) =>
  e._tag === "IllegalTxTransition" && past.includes((e as Extract<TxRequestError, { _tag: "IllegalTxTransition" }>).from)

/**
 * Records a fact about a request. One that lost a race to another settlement recording the same fact (the request
 * is already past it) is done: the read models are caught up with what the winner wrote, and the caller goes on.
 */
export const recordFact = <E extends { readonly _tag: string }, R>(
  record: Effect.Effect<{ readonly position: bigint }, E, R>,
  past: ReadonlyArray<TxRequestStatus>,
) =>
  record.pipe(
    Effect.flatMap((r) => sync(r.position)),
    Effect.catchIf(isIllegalFrom(past), () => catchUp),
    Effect.asVoid,
  )

/** Walks the chain's mined withdrawals: records each mined, then successful once confirmed. */
export const settleWithdrawals = (chain: string) =>
  Effect.gen(function* () {
    const { models, cursors } = yield* Models
    const view = models.chains.chain(chain)
    const schedule = view?.state.latest()?.schedule
    const n = view === undefined ? undefined : findNetwork(view.blockchain, view.network)
    if (view === undefined || schedule === undefined || n === undefined) return
    const now = yield* (yield* SimClock).now
    const key = `withdrawals:${chain}`
    let i = cursors.get(key) ?? 0
    while (i < view.minedWithdrawals.length) {
      const t = view.minedWithdrawals.at(i)
      const r = models.txRequests.byTransactionId.get(t.transfer.transactionId)
      const mined = t.mined.latest()!
      if (r === undefined) {
        i++
        continue
      }
      const vaultId = r.draft.vaultId
      if (r.status.latest() === "Broadcasted") {
        const s = spending(
          n,
          r.draft,
          t.transfer.failsInExecution === true,
          models.txRequests.feeStateAt(r.draft.feePayer ?? r.draft.sender, now).freeBandwidthUsed,
          models.tron.executions.get(t.transfer.transactionId),
        )
        const command = {
          type: "RecordTxMined" as const,
          requestId: r.draft.requestId,
          blockHeight: mined.height,
          blockHash: mined.blockHash,
          ...s,
          fee: s.fee.toString(),
          now,
        }
        yield* recordFact(runDecider(vaultDecider, vaultStream(vaultId), command), ["Mined", "MinedWithErrors", "Success"])
      }
      if (r.status.latest() === "Mined") {
        const confirmations = models.chains.heightAt(chain, now) - mined.height + 1
        if (confirmations < schedule.confirmations) break
        const command = { type: "RecordTxSucceeded" as const, requestId: r.draft.requestId, confirmations, now }
        yield* recordFact(runDecider(vaultDecider, vaultStream(vaultId), command), ["Success"])
        yield* creditByVault(internalCredits(models, n, r, mined, confirmations))
      }
      i++
    }
    cursors.set(key, i)
  })

/** Recipients that are addresses of this workspace holding the asset are credited like deposits, once confirmed. */
const internalCredits = (
  models: ReadModels,
  n: NetworkInfo,
  r: RequestView,
  mined: { height: number; blockHash: string },
  confirmations: number,
): Array<Deposit> => {
  const d = r.draft
  // A batch's calls are told apart by their index, as a UTXO transaction's outputs are (one transaction, many credits).
  const batch = d.recipients.some((x) => x.assetId !== undefined)
  return d.recipients.flatMap((x, i) => {
    const asset = findAsset(x.assetId ?? d.assetId)
    const a = models.holdings.address(n.blockchain, n.network, x.address, undefined)
    if (asset === undefined || a === undefined || !a.assets.has(asset.id)) return []
    return [
      {
        vaultId: a.facts.vaultId,
        vaultAccountId: a.facts.vaultAccountId,
        transactionId: d.transactionId,
        blockchain: n.blockchain,
        network: n.network,
        address: a.facts.address,
        fromAddress: d.sender ?? d.inputs[0]?.address ?? "",
        assetId: asset.id,
        amount: x.amount,
        blockHeight: mined.height,
        blockHash: mined.blockHash,
        confirmations,
        // UTXO: the output index; elsewhere the transaction id alone keys the credit.
        vout: n.family === "utxo" || batch ? i : null,
        assetType: asset.type,
        unit: asset.unit,
        decimalsAmount: formatAmount(BigInt(x.amount), asset.decimals),
      },
    ]
  })
}
