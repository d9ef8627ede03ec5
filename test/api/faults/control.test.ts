// /_sim/faults: add (201 with its id), list with hits, remove one, clear all; every refusal of a bad body, each
// naming the attribute, and nothing written for any of them; the admin token (or a dashboard session) required.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../../support/harness.js"

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => h.close())

const eventTypes = async () => ((await h.admin("GET", "/_sim/events?limit=1000")).body.events as Array<{ type: string }>).map((e) => e.type)
const status503 = { match: { method: "GET", path: "/vaults" }, effect: { kind: "status", status: 503 } }

describe("/_sim/faults", () => {
  it("adds a fault: 201 with its id, defaults filled in, a FaultAdded event written; GET lists it with its hits", async () => {
    const r = await h.admin("POST", "/_sim/faults", { ...status503, times: 2 })
    expect(r.status).toBe(201)
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      target: "api",
      match: { method: "GET", path: "/vaults" },
      effect: { kind: "status", status: 503 },
      times: 2,
      every: null,
      probability: null,
      seed: null,
      hits: 0,
      addedAt: expect.any(Number),
    })
    expect((await eventTypes()).at(-1)).toBe("FaultAdded")
    const list = await h.admin("GET", "/_sim/faults")
    expect(list.status).toBe(200)
    expect(list.body.faults).toEqual([r.body])
    await h.admin("DELETE", "/_sim/faults")
  })

  it("takes a method in any case and keeps it upper-case", async () => {
    const r = await h.admin("POST", "/_sim/faults", { match: { method: "post" }, effect: { kind: "reset" } })
    expect([r.status, r.body.match]).toEqual([201, { method: "POST" }])
    await h.admin("DELETE", "/_sim/faults")
  })

  it("removes one fault (FaultRemoved), then 404 for it; clears all (FaultsCleared) with the count", async () => {
    const a = (await h.admin("POST", "/_sim/faults", status503)).body.id as string
    const b = (await h.admin("POST", "/_sim/faults", { ...status503, effect: { kind: "timeout" } })).body.id as string
    const removed = await h.admin("DELETE", `/_sim/faults/${a}`)
    expect([removed.status, removed.body]).toEqual([200, { id: a, removed: true }])
    expect((await eventTypes()).at(-1)).toBe("FaultRemoved")
    const again = await h.admin("DELETE", `/_sim/faults/${a}`)
    expect([again.status, again.body.error.code]).toEqual([404, "resource_not_found"])
    expect((await h.admin("GET", "/_sim/faults")).body.faults.map((f: { id: string }) => f.id)).toEqual([b])
    const cleared = await h.admin("DELETE", "/_sim/faults")
    expect([cleared.status, cleared.body]).toEqual([200, { cleared: 1 }])
    expect((await eventTypes()).at(-1)).toBe("FaultsCleared")
    expect((await h.admin("GET", "/_sim/faults")).body.faults).toEqual([])
  })

  it("adds a webhook fault for a subscription; 404 for an unknown one", async () => {
    const sub = await h.admin("POST", "/_sim/webhooks", { url: "http://127.0.0.1:9/hook", secret: "s", events: ["*"] })
    expect(sub.status).toBe(201)
    const r = await h.admin("POST", "/_sim/faults", {
      target: "webhook",
      match: { webhookId: sub.body.id, event: "TRANSACTION_REQUEST" },
      effect: { kind: "fail", status: 500 },
      every: 2,
    })
    expect([r.status, r.body.target, r.body.effect]).toEqual([201, "webhook", { kind: "fail", status: 500 }])
    const unknown = await h.admin("POST", "/_sim/faults", { target: "webhook", match: { webhookId: "nope" }, effect: { kind: "reorder" } })
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "resource_not_found"])
    await h.admin("DELETE", "/_sim/faults")
  })

  const refusals: ReadonlyArray<readonly [string, Record<string, unknown>, number, string, string]> = [
    ["no match", { effect: { kind: "reset" } }, 409, "missing_required_attributes", "match"],
    ["no effect", { match: {} }, 409, "missing_required_attributes", "effect"],
    ["an unknown attribute", { ...status503, often: true }, 409, "extra_body_attributes", "often"],
    ["an unknown target", { ...status503, target: "chain" }, 400, "invalid_data", "target"],
    ["a match that is no object", { ...status503, match: "GET" }, 400, "invalid_data", "match"],
    ["an unknown method", { ...status503, match: { method: "FETCH" } }, 400, "invalid_data", "match.method"],
    ["a path without a slash", { ...status503, match: { path: "vaults" } }, 400, "invalid_data", "match.path"],
    ["an unknown version", { ...status503, match: { apiVersion: "2020-01-01" } }, 400, "invalid_data", "match.apiVersion"],
    ["an unknown match attribute", { ...status503, match: { host: "x" } }, 400, "invalid_data", "match.host"],
    ["an unknown effect kind", { ...status503, effect: { kind: "explode" } }, 400, "invalid_data", "effect.kind"],
    ["a status not offered", { ...status503, effect: { kind: "status", status: 418 } }, 400, "invalid_data", "effect.status"],
    ["a status effect without a status", { ...status503, effect: { kind: "status" } }, 400, "invalid_data", "effect.status"],
    ["a delay too long", { ...status503, effect: { kind: "delay", ms: 600_001 } }, 400, "invalid_data", "effect.ms"],
    ["an effect attribute its kind has not", { ...status503, effect: { kind: "reset", ms: 1 } }, 400, "invalid_data", "effect.ms"],
    ["a webhook effect on the API", { ...status503, effect: { kind: "duplicate" } }, 400, "invalid_data", "effect.kind"],
    [
      "a webhook fault without webhookId",
      { target: "webhook", match: {}, effect: { kind: "duplicate" } },
      400,
      "invalid_data",
      "match.webhookId",
    ],
    [
      "an unknown webhook event",
      { target: "webhook", match: { webhookId: "w", event: "X" }, effect: { kind: "reorder" } },
      400,
      "invalid_data",
      "match.event",
    ],
    [
      "a webhook fail with a 2xx status",
      { target: "webhook", match: { webhookId: "w" }, effect: { kind: "fail", status: 204 } },
      400,
      "invalid_data",
      "effect.status",
    ],
    [
      "a webhook delay of 0 seconds",
      { target: "webhook", match: { webhookId: "w" }, effect: { kind: "delay", seconds: 0 } },
      400,
      "invalid_data",
      "effect.seconds",
    ],
    ["times 0", { ...status503, times: 0 }, 400, "invalid_data", "times"],
    ["every 1.5", { ...status503, every: 1.5 }, 400, "invalid_data", "every"],
    ["probability above 1", { ...status503, probability: 1.5 }, 400, "invalid_data", "probability"],
    ["a seed that is no string", { ...status503, probability: 0.5, seed: 7 }, 400, "invalid_data", "seed"],
  ]
  for (const [what, body, status, code, attribute] of refusals)
    it(`refuses ${what}: ${status} ${code} naming ${attribute}, nothing written`, async () => {
      const before = (await eventTypes()).length
      const r = await h.admin("POST", "/_sim/faults", body)
      expect([r.status, r.body.error.code]).toEqual([status, code])
      expect(r.body.error.details.map((d: { attribute: string }) => d.attribute)).toContain(attribute)
      expect((await eventTypes()).length).toBe(before)
    })

  it("refuses a body that is no JSON object with 400", async () => {
    const r = await h.app.request("http://sim.test/_sim/faults", {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.adminToken}`, "content-type": "application/json" },
      body: "[1]",
    })
    expect(r.status).toBe(400)
  })

  it("needs the admin token: 401 unauthorized without it", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const r = await h.app.request("http://sim.test/_sim/faults", {
        method,
        headers: { "content-type": "application/json" },
        body: method === "GET" ? null : "{}",
      })
      expect([r.status, ((await r.json()) as { error: { code: string } }).error.code]).toEqual([401, "unauthorized"])
    }
    const one = await h.app.request("http://sim.test/_sim/faults/x", { method: "DELETE" })
    expect(one.status).toBe(401)
  })
})
