// POST /_sim/transaction-requests/{id}/reject: a request awaiting approval is rejected and its funds released;
// any other is refused with 409 and changes nothing.
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import { pickFrom, type Model, type Real } from "./world.js"

export class RejectCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly request: number) {}
  check = (m: Readonly<Model>) => m.requests.length > 0
  async run(m: Model, r: Real) {
    const q = pickFrom(m.requests, this.request)!
    const awaiting = q.status === "await-approval" || q.status === "await-approval-l2"
    const res = await r.sim.admin<{ transactionRequestStatus: string; error?: { code: string } }>(
      "POST",
      `/_sim/transaction-requests/${q.id}/reject`,
      { reason: "model" },
    )
    if (!awaiting)
      expect([res.status, res.body.error?.code], `reject in ${q.status}`).toEqual([409, "illegal_transaction_request_transition"])
    else {
      expect([res.status, res.body.transactionRequestStatus]).toEqual([200, "rejected"])
      q.rejected = true
    }
    await checkInvariants(m, r)
  }
  toString = () => `reject(request #${this.request})`
}
