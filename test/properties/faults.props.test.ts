// For random API fault schedules over a random sequence of signed calls (vault-account creations and reads): every
// write acknowledged (201) is in the log, no refused one (429/5xx, or a connection reset before the work) is, a
// write whose answer was lost after the work (lost-answer) is, and the accounts the log created are exactly those
// acknowledged or lost; each answer that is not the real one is a fault's recorded hit.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { startHarness } from "../support/harness.js"
import { PROPERTY_TIMEOUT_MS, runs } from "./budget.js"

const WRITE = { method: "POST", path: "/vaults/{vaultId}/vault-account" } as const
const READ = { method: "GET", path: "/vaults" } as const

const effect = fc.constantFrom(
  { kind: "status", status: 429 },
  { kind: "status", status: 503 },
  { kind: "status", status: 500 },
  { kind: "reset" },
  { kind: "lost-answer" },
)
const schedule = fc.oneof(
  fc.constant({}),
  fc.record({ times: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ every: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ probability: fc.double({ min: 0, max: 1, noNaN: true }), seed: fc.string({ minLength: 1, maxLength: 8 }) }),
)
const fault = fc.record({ match: fc.constantFrom(WRITE, READ, { method: "POST" }), effect, schedule })
const calls = fc.array(fc.constantFrom("write", "read"), { minLength: 1, maxLength: 12 })

describe("faults over a command sequence", () => {
  it("acknowledged writes are in the log, refused ones are not, and the accounts created reconcile", {
    timeout: PROPERTY_TIMEOUT_MS,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fault, { minLength: 1, maxLength: 3 }), calls, async (faults, sequence) => {
        const h = await startHarness()
        try {
          const effects = new Map<string, string>()
          for (const f of faults) {
            const r = await h.admin("POST", "/_sim/faults", { match: f.match, effect: f.effect, ...f.schedule })
            expect(r.status).toBe(201)
            effects.set(r.body.id, f.effect.kind)
          }
          const hits = () => new Map(h.sim.models.faults.all.map((f) => [f.definition.faultId, f.hits]))
          const acknowledged: Array<string> = []
          const refused: Array<string> = []
          const lost: Array<string> = []
          for (const [i, call] of sequence.entries()) {
            const before = hits()
            const name = `acct-${i}`
            const item = { name, color: "#123456", isHiddenInDashboard: false }
            const r =
              call === "write"
                ? await h.raw({ method: "POST", url: `/vaults/${h.testVaultId}/vault-account`, body: JSON.stringify({ data: { item } }) })
                : await h.raw({ method: "GET", url: "/vaults" })
            const hit = [...hits()].filter(([id, n]) => n > (before.get(id) ?? 0)).map(([id]) => effects.get(id))
            const real = call === "write" ? 201 : 200
            // The real answer, or exactly one fault's hit.
            if (r.status === real) expect(hit.filter((k) => k !== "lost-answer")).toEqual([])
            else expect(hit).toHaveLength(1)
            if (call !== "write") continue
            if (r.status === 201) acknowledged.push(name)
            else if (hit[0] === "lost-answer") lost.push(name)
            else refused.push(name)
          }
          const log = await h.admin("GET", "/_sim/events?limit=10000")
          expect(log.status).toBe(200)
          const created = (log.body.events as Array<{ type: string; data: { name?: string; vaultId?: string } }>)
            .filter((e) => e.type === "VaultAccountCreated" && e.data.vaultId === h.testVaultId)
            .map((e) => e.data.name!)
          for (const name of [...acknowledged, ...lost]) expect(created).toContain(name)
          for (const name of refused) expect(created).not.toContain(name)
          // Reconciled: the accounts the log created are exactly those acknowledged or lost, each once.
          const ours = created.filter((n) => n.startsWith("acct-"))
          expect([...ours].sort()).toEqual([...acknowledged, ...lost].sort())
        } finally {
          await h.close()
        }
      }),
      { numRuns: runs(0.1) },
    )
  })
})
