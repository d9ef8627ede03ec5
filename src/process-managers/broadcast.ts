// Broadcast process manager: sends a request the vault marked broadcasted to its chain; a refused broadcast
// fails the request and releases its funds.
import { Effect } from "effect"
import { findNetwork } from "../domain/chains/index.js"
import type { VaultId } from "../domain/shared/ids.js"
import { Ids } from "../commands/services.js"
import { failTxRequest } from "../commands/transaction-requests.js"
import { chainKey } from "../chain-sim/index.js"
import { submitTransfer } from "../commands/chain-mining.js"
import { catchUp, Models, sync } from "./read-models.js"
import { settle } from "./settle.js"
import { recordFact } from "./withdrawals.js"

export const broadcast = (vaultId: string, requestId: string) =>
  Effect.gen(function* () {
    const { models } = yield* Models
    const r = models.txRequests.byId.get(requestId)
    const n = r === undefined ? undefined : findNetwork(r.draft.blockchain, r.draft.network)
    if (r === undefined || n === undefined || r.status.latest() !== "Broadcasted" || models.chains.transfers.has(r.draft.transactionId))
      return
    const d = r.draft
    const recordId = yield* (yield* Ids).next("transaction")
    const batch = d.recipients.some((x) => x.assetId !== undefined)
    const result = yield* submitTransfer(n, {
      transactionId: d.transactionId,
      recordId,
      kind: "withdrawal",
      assetId: batch ? (d.recipients[0]!.assetId ?? d.assetId) : d.assetId,
      from: d.sender ?? d.inputs[0]?.address ?? "",
      // A staking operation names its own address (or the delegation's receiver) and moves no value.
      to: d.recipients[0]?.address ?? (d.operation !== undefined && "receiver" in d.operation ? d.operation.receiver : (d.sender ?? "")),
      amount: batch ? d.recipients[0]!.amount : d.recipients.reduce((a, x) => a + BigInt(x.amount), 0n).toString(),
      fee: d.maxFee,
      ...(d.feePayer !== undefined ? { feePayer: d.feePayer } : {}),
      ...(batch ? { calls: d.recipients.map((x) => ({ to: x.address, assetId: x.assetId ?? d.assetId, amount: x.amount })) } : {}),
      vout: n.family === "utxo" ? 0 : null,
      ...(d.operation !== undefined ? { operation: d.operation } : {}),
    })
    // Nothing appended: another broadcast of this request got there first (the chain takes a transaction once).
    yield* result.position >= 0n ? sync(result.position) : catchUp
    const refused = result.state._tag === "Running" ? result.state.rejected.get(d.transactionId) : undefined
    if (refused !== undefined) return yield* recordFact(failTxRequest(vaultId as VaultId, requestId, refused), ["Failed"])
    yield* settle(chainKey(n.blockchain, n.network))
  })

/** Requests left broadcasted but never sent (a crash, or a failed follow-up, between the two writes) are sent again. */
export const resumeBroadcasts = Effect.gen(function* () {
  const { models } = yield* Models
  for (const r of models.txRequests.open())
    if (r.status.latest() === "Broadcasted" && !models.chains.transfers.has(r.draft.transactionId))
      yield* broadcast(r.draft.vaultId, r.draft.requestId)
})
