// POST /_sim/transaction-requests/{id}/approve: a request awaiting approval moves to its second level or is
// broadcast; any other is refused with 409 and changes nothing.
import type fc from "fast-check"
import { expect } from "vitest"
import { broadcastTakesFault } from "./requests.js"
import { checkInvariants } from "./invariants.js"
import { pickFrom, type Model, type Real } from "./world.js"

export class ApproveCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly request: number) {}
  check = (m: Readonly<Model>) => m.requests.length > 0
  async run(m: Model, r: Real) {
    const q = pickFrom(m.requests, this.request)!
    const awaiting = q.status === "await-approval" || q.status === "await-approval-l2"
    const res = await r.sim.admin<{ transactionRequestStatus: string; error?: { code: string } }>(
      "POST",
      `/_sim/transaction-requests/${q.id}/approve`,
      {},
    )
    if (!awaiting) {
      expect([res.status, res.body.error?.code], `approve in ${q.status}`).toEqual([409, "illegal_transaction_request_transition"])
      return checkInvariants(m, r)
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const toSecondLevel = q.levels === 2 && q.status === "await-approval"
    if (toSecondLevel) expect(res.body.transactionRequestStatus).toBe("await-approval-l2")
    else broadcastTakesFault(m, q)
    await checkInvariants(m, r)
  }
  toString = () => `approve(request #${this.request})`
}
