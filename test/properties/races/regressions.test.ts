// Interleavings the race property found, replayed in the order the scheduler released their store calls
// (fc.schedulerFor): an approval and a clock step over the same request, each of which once broke a rule.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkAfterRace, startRace } from "./world.js"

const approveWhileAdvancing = async (order: Array<number>) => {
  const s = fc.schedulerFor(order)
  const w = await startRace(s, 1)
  w.scheduled.scheduling = true
  const [approved, advanced] = await s.waitFor(
    Promise.all([w.sim.admin<any>("POST", `/_sim/transaction-requests/${w.waiting[0]}/approve`, {}), w.sim.admin<any>("POST", "/_sim/clock/advance", { seconds: 1 })]),
  )
  return { w, s, approved, advanced }
}

describe("an approval racing a clock step", () => {
  it("both broadcast the approved request; the chain takes its transaction once and mines it once", async () => {
    // Found with seed -1984416863, path 9: both read the chain before either appended; the loser's retry submitted
    // the transaction again and the chain mined it twice.
    const { w, s, approved, advanced } = await approveWhileAdvancing([1, 3, 4, 2, 6, 5, 7, 8, 9, 10, 11, 12])
    try {
      expect([approved.status, advanced.status]).toEqual([200, 200])
      const submissions = s.report().filter((t) => String(t.label).startsWith("append ChainTxSubmitted"))
      expect(submissions.length, "both broadcasts reached the chain").toBe(2)
      await checkAfterRace(w, { requests: [], deposits: [] })
      expect((await w.sim.client().call<any>("GET", `/transactionRequests/${w.waiting[0]}`)).body.data.item.transactionRequestStatus).toBe("success")
    } finally {
      await w.sim.close()
    }
  })

  it("the settlement that loses the race to record the request successful treats it as done: the clock step answers 200", async () => {
    // Found with seed 1049290698, path 2: both settlements saw the withdrawal confirmed; the loser's retry was refused
    // (already success) and that refusal became the clock step's answer, 409 illegal_transaction_request_transition.
    const { w, s, approved, advanced } = await approveWhileAdvancing([1, 3, 4, 5, 6, 7, 2, 9, 8, 11, 10, 12])
    try {
      expect([approved.status, advanced.status, advanced.body.error?.code]).toEqual([200, 200, undefined])
      const successes = s.report().filter((t) => String(t.label).startsWith("append TxRequestSucceeded"))
      expect(successes.length, "both settlements tried to record the success").toBe(2)
      await checkAfterRace(w, { requests: [], deposits: [] })
    } finally {
      await w.sim.close()
    }
  })
})
