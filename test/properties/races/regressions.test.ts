// Interleavings the race property found, replayed in the order the scheduler released their store calls
// (fc.schedulerFor): settlements and broadcasts racing over the same request, each of which once broke a rule.
// The chain mines on an interval, so that a clock step reads the chain before it settles: a chain mined at each
// submission has no block due with time, and a clock step over it touches the store only to settle.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkAfterRace, startRace } from "./world.js"

const onInterval = async (order: Array<number>) => {
  const s = fc.schedulerFor(order)
  const w = await startRace(s, 1)
  await w.sim.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "interval", intervalSeconds: 1, confirmations: 1 })
  return { s, w }
}

const advance = (w: Awaited<ReturnType<typeof startRace>>) => w.sim.admin<any>("POST", "/_sim/clock/advance", { seconds: 1 })

describe("races over one withdrawal", () => {
  it("an approval racing a clock step: both broadcast the request; the chain takes its transaction once and mines it once", async () => {
    // Found with seed -1984416863, path 9 (then replayed on a chain mined at each submission): both read the chain
    // before either appended; the loser's retry submitted the transaction again and the chain mined it twice.
    const { s, w } = await onInterval([1, 3, 2, 5, 4, 6, 7, 8])
    try {
      w.scheduled.scheduling = true
      const [approved, advanced] = await s.waitFor(
        Promise.all([w.sim.admin<any>("POST", `/_sim/transaction-requests/${w.waiting[0]}/approve`, {}), advance(w)]),
      )
      expect([approved.status, advanced.status]).toEqual([200, 200])
      const submissions = s.report().filter((t) => String(t.label).startsWith("append ChainTxSubmitted"))
      expect(submissions.length, "both broadcasts reached the chain").toBe(2)
      w.scheduled.scheduling = false
      expect((await advance(w)).status).toBe(200)
      await checkAfterRace(w, { requests: [], deposits: [] })
      expect((await w.sim.client().call<any>("GET", `/transactionRequests/${w.waiting[0]}`)).body.data.item.transactionRequestStatus).toBe(
        "success",
      )
    } finally {
      await w.sim.close()
    }
  })

  it("two clock steps: the settlement that loses the race to record the request successful treats it as done, and both answer 200", async () => {
    // Found with seed 1049290698, path 2: both settlements saw the withdrawal confirmed; the loser's retry was refused
    // (already success) and that refusal became the clock step's answer, 409 illegal_transaction_request_transition.
    const { s, w } = await onInterval([1, 3, 4, 5, 2, 7, 6, 8, 9, 10])
    try {
      expect((await w.sim.admin("POST", `/_sim/transaction-requests/${w.waiting[0]}/approve`, {})).status).toBe(200)
      w.scheduled.scheduling = true
      const [first, second] = await s.waitFor(Promise.all([advance(w), advance(w)]))
      expect([first.status, second.status, first.body.error?.code, second.body.error?.code]).toEqual([200, 200, undefined, undefined])
      const successes = s.report().filter((t) => String(t.label).startsWith("append TxRequestSucceeded"))
      expect(successes.length, "both settlements tried to record the success").toBe(2)
      await checkAfterRace(w, { requests: [], deposits: [] })
      expect((await w.sim.client().call<any>("GET", `/transactionRequests/${w.waiting[0]}`)).body.data.item.transactionRequestStatus).toBe(
        "success",
      )
    } finally {
      await w.sim.close()
    }
  })
})
