// Faults in the log: an export replayed holds the same faults, with the same hits, at the same positions, and its
// audit has the same digest; a snapshot's revert drops the faults added after it and the hits made after it, and
// the faults from before it fire again as their schedule said at the snapshot.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness } from "../../support/harness.js"
import { exportText, importText } from "../../support/log-file.js"
import { startScenario, type Scenario } from "../../webhooks/scenario.js"

let s: Scenario
beforeAll(async () => {
  s = await startScenario()
})
afterAll(async () => s.close())

const newAccount = (name: string) =>
  s.h.client.call<any>("POST", `/vaults/${s.h.testVaultId}/vault-account`, {
    item: { name, color: "#000000", isHiddenInDashboard: false },
  })
const accountFault = (status: number, times: number) => ({
  match: { method: "POST", path: "/vaults/{vaultId}/vault-account" },
  effect: { kind: "status", status },
  times,
})

type Admin = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>
const faultEvents = async (admin: Admin) =>
  (await admin("GET", "/_sim/events?limit=10000")).body.events.filter((e: { type: string }) => e.type.startsWith("Fault"))
const faults = async (admin: Admin) => (await admin("GET", "/_sim/faults")).body.faults

describe("an exported log with faults", () => {
  it("replays the same faults and hits at the same positions, with the same audit digest", async () => {
    const api = await s.h.admin("POST", "/_sim/faults", accountFault(503, 1))
    expect(api.status).toBe(201)
    expect((await newAccount("refused")).status).toBe(503)
    expect((await newAccount("made")).status).toBe(201)
    const sub = (await s.subscribe()).body
    const hook = await s.h.admin("POST", "/_sim/faults", {
      target: "webhook",
      match: { webhookId: sub.id },
      effect: { kind: "duplicate" },
      times: 1,
    })
    expect(hook.status).toBe(201)
    await s.deposit("1")
    await s.rx.waitFor(2)
    await s.h.sim.webhooks!.idle()

    const recorded = await faultEvents(s.h.admin)
    expect(recorded.map((e: { type: string }) => e.type)).toEqual(["FaultAdded", "FaultHit", "FaultAdded", "FaultHit"])
    const replayed = await startHarness({ sim: { defaultWorkspace: false, webhooks: false } })
    try {
      expect((await importText(replayed, await exportText(s.h))).status).toBe(200)
      expect(await faultEvents(replayed.admin)).toEqual(recorded)
      expect(await faults(replayed.admin)).toEqual(await faults(s.h.admin))
      expect((await faults(replayed.admin)).map((f: { hits: number }) => f.hits)).toEqual([1, 1])
      const digest = async (admin: Admin) => (await admin("GET", "/_sim/audit")).body.digest
      expect(await digest(replayed.admin)).toEqual(await digest(s.h.admin))
    } finally {
      await replayed.close()
    }
    await s.h.admin("DELETE", "/_sim/faults")
  })
})

describe("a revert", () => {
  it("drops the faults added after the snapshot and the hits made after it", async () => {
    const before = (await s.h.admin("POST", "/_sim/faults", accountFault(502, 2))).body.id as string
    expect((await newAccount("first")).status).toBe(502)
    const snap = await s.h.admin("POST", "/_sim/snapshots")
    expect(snap.status).toBe(201)
    expect((await newAccount("second")).status).toBe(502)
    const after = await s.h.admin("POST", "/_sim/faults", accountFault(504, 1))
    expect(after.status).toBe(201)
    expect((await faults(s.h.admin)).map((f: { id: string; hits: number }) => [f.id, f.hits])).toEqual([
      [before, 2],
      [after.body.id, 0],
    ])

    expect((await s.h.admin("POST", `/_sim/snapshots/${snap.body.id}/revert`)).status).toBe(200)
    expect((await faults(s.h.admin)).map((f: { id: string; hits: number }) => [f.id, f.hits])).toEqual([[before, 1]])
    expect((await faultEvents(s.h.admin)).filter((e: { data: { faultId: string } }) => e.data.faultId === after.body.id)).toEqual([])
    // The fault from before the snapshot has one hit left, as it had then; the one added after is gone.
    expect((await newAccount("again")).status).toBe(502)
    expect((await newAccount("made")).status).toBe(201)
    await s.h.admin("DELETE", "/_sim/faults")
  })

  it("puts back the calls an `every` fault had counted at the snapshot, and a reset counts from zero", async () => {
    const h = await startHarness()
    try {
      const create = async (name: string) =>
        (
          await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
            item: { name, color: "#000000", isHiddenInDashboard: false },
          })
        ).status
      const everyThird = { ...accountFault(503, 10), every: 3 }
      expect((await h.admin("POST", "/_sim/faults", everyThird)).status).toBe(201)
      expect(await create("call-1")).toBe(201)
      const snap = await h.admin("POST", "/_sim/snapshots")
      expect([await create("call-2"), await create("call-3")]).toEqual([201, 503])
      expect((await h.admin("POST", `/_sim/snapshots/${snap.body.id}/revert`)).status).toBe(200)
      // Counted on from the snapshot's one call: the third is hit again, then the sixth.
      const afterRevert = [await create("call-2"), await create("call-3"), await create("call-4"), await create("call-5")]
      expect(afterRevert).toEqual([201, 503, 201, 201])
      expect(await create("call-6")).toBe(503)

      expect((await h.admin("POST", "/_sim/reset")).status).toBe(200)
      expect(await faults(h.admin)).toEqual([])
      // A fault added after the reset counts from zero, though the counts before it went further.
      expect((await h.admin("POST", "/_sim/faults", everyThird)).status).toBe(201)
      expect([await create("a"), await create("b"), await create("c")]).toEqual([201, 201, 503])
    } finally {
      await h.close()
    }
  })
})
