// Transaction requests read model (endpoint #15 and the withdrawal process manager): status over time.
import type { TxRequestDraft, TxRequestEvent } from "../domain/transaction-request/index.js"
import type { TxRequestStatus } from "../domain/transaction-request/index.js"
import type { StoredOf } from "../events/stored-event.js"
import { History } from "./storage/history.js"
import type { AsOf } from "./projection.js"

export interface RequestView {
  readonly draft: TxRequestDraft
  readonly createdAt: number
  readonly position: bigint
  readonly status: History<TxRequestStatus>
  mined: { readonly blockHeight: number; readonly blockHash: string; readonly fee: string; readonly at: number } | undefined
}

const DAY_MS = 86_400_000

const progressed: Record<string, TxRequestStatus> = {
  pending: "Pending",
  prepared: "Prepared",
  signed: "Signed",
  broadcasted: "Broadcasted",
}

export const txRequestsFoldTypes = [
  "TxRequestCreated",
  "TxRequestApproved",
  "TxRequestProgressed",
  "TxRequestRejected",
  "TxRequestFailed",
  "TxRequestMined",
  "TxRequestSucceeded",
] as const satisfies ReadonlyArray<TxRequestEvent["type"]>

export class TxRequestsModel {
  readonly byId = new Map<string, RequestView>()
  readonly byTransactionId = new Map<string, RequestView>()
  /** Free tron bandwidth used per sender: (simulated time, units), for the 24-hour allowance. */
  readonly tronBandwidth = new Map<string, Array<{ readonly at: number; readonly units: number; readonly position: bigint }>>()

  find(requestId: string, asOf: AsOf): RequestView | undefined {
    const r = this.byId.get(requestId)
    return r !== undefined && (asOf === undefined || r.position <= asOf) ? r : undefined
  }

  /** Requests broadcast but not yet mined, or mined but not yet successful. */
  open(): ReadonlyArray<RequestView> {
    return [...this.byId.values()].filter((r) => {
      const s = r.status.latest()
      return s === "Broadcasted" || s === "Mined"
    })
  }

  freeBandwidthUsed(address: string, since: number): number {
    return (this.tronBandwidth.get(address) ?? []).filter((u) => u.at > since).reduce((a, u) => a + u.units, 0)
  }

  /** The fee state a transfer from this address mined at `now` meets: tron's free bandwidth used in the 24 hours before. */
  feeStateAt(address: string | null, now: number): { readonly freeBandwidthUsed: number } {
    return { freeBandwidthUsed: address === null ? 0 : this.freeBandwidthUsed(address, now - DAY_MS) }
  }

  private setStatus(position: bigint, requestId: string, status: TxRequestStatus): void {
    this.byId.get(requestId)?.status.set(position, status)
  }

  apply(event: StoredOf<(typeof txRequestsFoldTypes)[number]>): void {
    switch (event.type) {
      case "TxRequestCreated": {
        const { at, ...draft } = event.data
        const view: RequestView = { draft, createdAt: at, position: event.position, status: new History(), mined: undefined }
        view.status.set(event.position, draft.approvalLevels === 0 ? "Created" : "AwaitingApproval")
        this.byId.set(draft.requestId, view)
        this.byTransactionId.set(draft.transactionId, view)
        return
      }
      case "TxRequestApproved": {
        const r = this.byId.get(event.data.requestId)
        if (r !== undefined && event.data.level === 1 && r.draft.approvalLevels === 2)
          this.setStatus(event.position, event.data.requestId, "AwaitingApprovalL2")
        return
      }
      case "TxRequestProgressed":
        this.setStatus(event.position, event.data.requestId, progressed[event.data.status]!)
        return
      case "TxRequestRejected":
        this.setStatus(event.position, event.data.requestId, "Rejected")
        return
      case "TxRequestFailed":
        this.setStatus(event.position, event.data.requestId, "Failed")
        return
      case "TxRequestMined": {
        const r = this.byId.get(event.data.requestId)
        if (r === undefined) return
        r.mined = { blockHeight: event.data.blockHeight, blockHash: event.data.blockHash, fee: event.data.fee, at: event.data.at }
        this.setStatus(event.position, event.data.requestId, event.data.withErrors ? "MinedWithErrors" : "Mined")
        const free = event.data.freeBandwidth
        // The free bandwidth used is the payer's: the fee payer when the request names one.
        const payer = r.draft.feePayer ?? r.draft.sender
        if (free !== undefined && free > 0 && payer !== null)
          this.tronBandwidth.set(payer, [
            ...(this.tronBandwidth.get(payer) ?? []),
            { at: event.data.at, units: free, position: event.position },
          ])
        return
      }
      case "TxRequestSucceeded":
        this.setStatus(event.position, event.data.requestId, "Success")
        return
      default:
        return
    }
  }
}
