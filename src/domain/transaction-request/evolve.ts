// Folds transaction request events into the vault's request map and the ledger's reserved outputs (in place).
import { absurd } from "../shared/decider.js"
import type { Ledger } from "../ledger/state.js"
import type { TxRequestEvent } from "./events.js"
import type { TxRequestState, TxRequestStatus } from "./state.js"

const progressed: Record<string, TxRequestStatus> = {
  pending: "Pending",
  prepared: "Prepared",
  signed: "Signed",
  broadcasted: "Broadcasted",
}

export const evolveTxRequest = (requests: Map<string, TxRequestState>, ledger: Ledger, e: TxRequestEvent): void => {
  switch (e.type) {
    case "TxRequestCreated": {
      const { at: _at, ...draft } = e.data
      if (requests.has(draft.requestId)) return
      requests.set(draft.requestId, {
        draft,
        status: draft.approvalLevels === 0 ? "Created" : "AwaitingApproval",
        transactionId: null,
        held: true,
      })
      for (const i of draft.inputs) ledger.reservedOutputs.add(`${i.transactionId}:${i.vout}`)
      return
    }
    case "TxRequestApproved": {
      const r = requests.get(e.data.requestId)
      if (r !== undefined && r.status === "AwaitingApproval" && e.data.level === 1 && r.draft.approvalLevels === 2)
        r.status = "AwaitingApprovalL2"
      return
    }
    case "TxRequestProgressed": {
      const r = requests.get(e.data.requestId)
      if (r === undefined) return
      r.status = progressed[e.data.status]!
      if (e.data.transactionId !== null) r.transactionId = e.data.transactionId
      return
    }
    case "TxRequestRejected":
    case "TxRequestFailed": {
      const r = requests.get(e.data.requestId)
      if (r === undefined) return
      r.status = e.type === "TxRequestRejected" ? "Rejected" : "Failed"
      r.held = false
      for (const i of r.draft.inputs) ledger.reservedOutputs.delete(`${i.transactionId}:${i.vout}`)
      return
    }
    case "TxRequestMined": {
      const r = requests.get(e.data.requestId)
      if (r === undefined) return
      r.status = e.data.withErrors ? "MinedWithErrors" : "Mined"
      r.held = false
      for (const i of r.draft.inputs) {
        const key = `${i.transactionId}:${i.vout}`
        ledger.reservedOutputs.delete(key)
        if (!e.data.withErrors) {
          ledger.utxos.delete(key)
          ledger.spentOutputs.add(key)
        }
      }
      for (const c of e.data.credits)
        ledger.utxos.set(`${e.data.transactionId}:${c.vout}`, {
          transactionId: e.data.transactionId,
          vout: c.vout,
          address: c.address,
          blockchain: e.data.blockchain,
          network: e.data.network,
          amount: BigInt(c.amount),
        })
      return
    }
    case "TxRequestSucceeded": {
      const r = requests.get(e.data.requestId)
      if (r !== undefined && r.status === "Mined") r.status = "Success"
      return
    }
    default:
      return absurd(e)
  }
}
