// The gate under random interleavings (fast-check's scheduler decides every step): requests as the API runs them
// (a body received first, outside the gate, which may be cut off or come slowly; then the request inside it,
// answering at once, later, or failing) and world-replacing calls (exclusive, never inside the gate). Whatever
// the order, every request and every call ends; no request runs beside a world-replacing call; a request that
// arrives while one waits runs after it; calls run one at a time in the order they came.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeGate } from "../../../src/snapshots/gate.js"

type Inside = "sync" | "throws" | "async" | "rejects" | "slow"
type Body = "none" | "whole" | "cut-off" | "slow"
type Step =
  | { readonly kind: "request"; readonly body: Body; readonly inside: Inside }
  | { readonly kind: "replace"; readonly fails: boolean; readonly steps: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("request" as const),
      body: fc.constantFrom<Body>("none", "whole", "cut-off", "slow"),
      inside: fc.constantFrom<Inside>("sync", "throws", "async", "rejects", "slow"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replace" as const), fails: fc.boolean(), steps: fc.nat({ max: 3 }) }) },
)

describe("the gate under random interleavings", () => {
  it("every request and world-replacing call ends; none overlaps a world-replacing call; arrival order is kept", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(step, { minLength: 1, maxLength: 25 }), async (s, steps) => {
        const gate = makeGate()
        const tick = () => s.schedule(Promise.resolve())
        let inside = 0
        let replacing = 0
        let clock = 0
        // Per world-replacing call: when it was queued and when it ended (logical time).
        const replaces: Array<{ queued: number; ended: number }> = []
        const violations: Array<string> = []
        const ended = new Set<number>()

        const request = async (i: number, body: Body, kind: Inside) => {
          // The body, read before the request enters the gate (operation.ts, sim/common.ts).
          if (body === "slow") for (let k = 0; k < 3; k++) await tick()
          else if (body !== "none") await tick()
          if (body === "cut-off") return // abandoned: the client is gone, the request never enters
          const arrived = ++clock
          const run = (): unknown => {
            if (replacing > 0) violations.push(`request ${i} ran beside a world-replacing call`)
            const started = ++clock
            for (const r of replaces)
              if (r.queued < arrived && (r.ended === 0 || r.ended > started))
                violations.push(`request ${i} overtook a world-replacing call queued before it`)
            inside++
            const leave = () => void inside--
            if (kind === "sync") return void leave()
            if (kind === "throws") {
              leave()
              throw new Error("refused")
            }
            const steps = kind === "slow" ? 4 : 1
            let p: Promise<void> = tick()
            for (let k = 1; k < steps; k++) p = p.then(tick)
            return p.then(() => {
              leave()
              if (kind === "rejects") throw new Error("failed")
            })
          }
          try {
            await gate.shared(run)
          } catch {
            // a refusal or a failure: the request ended all the same
          }
        }

        const replace = async (fails: boolean, n: number) => {
          const me = { queued: ++clock, ended: 0 }
          replaces.push(me)
          const order = replaces.length
          await gate
            .exclusive(async () => {
              if (inside > 0 || replacing > 0)
                violations.push(`world-replacing call ${order} ran beside ${inside} requests and ${replacing} calls`)
              if (replaces.slice(0, order - 1).some((r) => r.ended === 0))
                violations.push(`world-replacing call ${order} overtook an earlier one`)
              replacing++
              for (let k = 0; k < n; k++) await tick()
              replacing--
              me.ended = ++clock
              if (fails) throw new Error("revert failed")
            })
            .catch(() => {})
        }

        const all = steps.map((st, i) =>
          s
            .schedule(Promise.resolve(), `arrive ${i}`)
            .then(() => (st.kind === "request" ? request(i, st.body, st.inside) : replace(st.fails, st.steps)))
            .then(() => void ended.add(i)),
        )
        // Until nothing is left to schedule: a step may be scheduled a few microtasks after the one before it ran.
        for (;;) {
          await s.waitAll()
          await new Promise((resolve) => setTimeout(resolve, 0))
          if (s.count() === 0) break
        }
        await Promise.race([Promise.all(all), new Promise((resolve) => setTimeout(resolve, 0))])
        expect(violations).toEqual([])
        expect(steps.map((_, i) => i).filter((i) => !ended.has(i))).toEqual([])
        // Nothing left inside: the next request answers at once, synchronously.
        expect(gate.shared(() => "free")).toBe("free")
      }),
      { numRuns: 300 },
    )
  })
})

describe("why world-replacing routes never enter the gate", () => {
  it("a world-replacing call made from inside it waits for itself and never ends (what a percent-encoded spelling did)", async () => {
    const gate = makeGate()
    let ended = false
    void gate.shared(() => gate.exclusive(async () => {}).then(() => void (ended = true)))
    // Not a timing bound: the call can never end; the turns only let every promise that could settle do so.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ended).toBe(false)
  })
})
