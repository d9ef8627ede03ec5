// Webhook subscriptions through the control plane: create (active at once by default), verify (request and
// manual), list, delete, refusals.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { verifyWebhookSignature } from "../../src/client/index.js"
import { BASE } from "../support/harness.js"
import { exportText, parseFile } from "../support/log-file.js"
import { SECRET, startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

describe("a subscription by default", () => {
  it("is active at once, sends the receiver nothing before the first notification, and delivers that one first", async () => {
    // A receiver that knows no handshake: it answers 200 to everything and echoes nothing.
    s.rx.answerVerification = () => ({ status: 200 })
    const created = await s.subscribe({ apiVersion: "2024-05-09" })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      verification: "dashboard",
      status: "active",
      verifiedAt: expect.any(Number),
      lastVerification: { ok: true, method: "dashboard", statusCode: null, error: null },
    })
    expect(created.body.verifiedAt).toBe(created.body.createdAt)
    expect(s.rx.received).toEqual([])
    const txid = await s.deposit()
    await s.rx.waitFor(1)
    await s.h.sim.webhooks!.idle()
    expect(s.rx.received).toHaveLength(1)
    expect(s.rx.received[0]!.body).toMatchObject({
      webhookId: created.body.id,
      data: { event: "INCOMING_CONFIRMED_COIN_TX", item: { transactionId: txid } },
    })
    // Verifying it again changes nothing and sends nothing.
    expect((await s.h.admin("POST", `/_sim/webhooks/${created.body.id}/verify`)).body).toMatchObject({
      status: "active",
      lastVerification: { method: "dashboard" },
    })
    expect(s.rx.received).toHaveLength(1)
  })

  it("writes the subscription and its verification in one append, both in the log", async () => {
    const created = await s.subscribe({ verification: "dashboard", apiVersion: "2024-05-09" })
    const mine = parseFile(await exportText(s.h)).events.filter((e) => e.stream === `webhook-${created.body.id}`)
    expect(mine.map((e) => e.type)).toEqual(["WebhookSubscribed", "WebhookVerified"])
    expect(mine[1]!.data).toMatchObject({ webhookId: created.body.id, method: "dashboard", outcome: null })
  })
})

describe("a subscription verified by request", () => {
  it("sends a signed challenge, becomes active when echoed, is listed, and is gone once deleted", async () => {
    const created = await s.subscribe({ events: ["INCOMING_CONFIRMED_COIN_TX"], verification: "request" })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      url: s.rx.url,
      events: ["INCOMING_CONFIRMED_COIN_TX"],
      vaultIds: null,
      signatureEncoding: "base64",
      verification: "request",
      retrySchedule: null,
      status: "active",
      lastVerification: { ok: true, method: "request", statusCode: 200, error: null },
    })
    expect(created.body).not.toHaveProperty("secret")
    const [v] = s.rx.verifications()
    expect(v!.body).toEqual({
      type: "verification",
      webhookId: created.body.id,
      challenge: expect.stringMatching(/^[0-9a-f]{32}$/),
      apiVersion: expect.any(String),
    })
    expect(verifyWebhookSignature({ body: v!.raw, signature: v!.headers["x-signature"] as string, secret: SECRET })).toBe(true)

    const id = created.body.id as string
    expect((await s.h.admin("GET", `/_sim/webhooks/${id}`)).body).toEqual(created.body)
    expect((await s.h.admin("GET", "/_sim/webhooks")).body.webhooks.map((w: { id: string }) => w.id)).toEqual([id])
    expect(await s.h.admin("DELETE", `/_sim/webhooks/${id}`)).toEqual({ status: 200, body: { id, deleted: true } })
    expect((await s.h.admin("GET", `/_sim/webhooks/${id}`)).status).toBe(404)
    expect((await s.h.admin("DELETE", `/_sim/webhooks/${id}`)).body.error.code).toBe("resource_not_found")
    expect((await s.h.admin("GET", "/_sim/webhooks")).body.webhooks).toEqual([])
    await s.deposit()
    await s.h.sim.webhooks!.idle()
    expect(s.rx.deliveries()).toEqual([])
  })

  it("stays pending when the challenge is not echoed, delivers nothing meanwhile, and is verified on retry", async () => {
    s.rx.answerVerification = () => ({ status: 200, body: "ok" })
    const created = await s.subscribe({ verification: "request" })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      status: "pending",
      verifiedAt: null,
      lastVerification: { ok: false, reason: "the answer did not echo the challenge", statusCode: 200 },
    })
    const id = created.body.id as string

    await s.deposit()
    await s.h.sim.webhooks!.idle()
    expect(s.rx.deliveries()).toEqual([])

    s.rx.answerVerification = () => ({ status: 503 })
    const failed = await s.h.admin("POST", `/_sim/webhooks/${id}/verify`)
    expect(failed.status).toBe(409)
    expect(failed.body.error).toMatchObject({ code: "webhook_verification_failed", message: expect.stringContaining("503") })

    s.rx.answerVerification = (r) => ({ status: 200, body: r.body.challenge })
    const ok = await s.h.admin("POST", `/_sim/webhooks/${id}/verify`)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ status: "active", lastVerification: { ok: true } })
    const challenges = s.rx.verifications().map((r) => r.body.challenge)
    expect(new Set(challenges).size).toBe(3)

    // Only notifications raised once the subscription is operational are delivered.
    await s.deposit()
    await s.h.sim.webhooks!.idle()
    expect(s.rx.deliveries()).toHaveLength(1)
    expect((await s.h.admin("POST", `/_sim/webhooks/${id}/verify`)).body.status).toBe("active")
    expect(s.rx.verifications()).toHaveLength(3)
  })

  it("records a network error as the reason", async () => {
    const r = await s.h.admin("POST", "/_sim/webhooks", {
      url: "http://127.0.0.1:1/hooks",
      secret: SECRET,
      events: ["*"],
      verification: "request",
    })
    expect(r.status).toBe(201)
    expect(r.body.status).toBe("pending")
    expect(r.body.lastVerification).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining("ECONNREFUSED") })
  })
})

describe("a subscription verified manually", () => {
  it("sends no request, delivers nothing while pending, and becomes active on POST /verify", async () => {
    const created = await s.subscribe({
      verification: "manual",
      signatureEncoding: "hex",
      vaultIds: [s.h.testVaultId],
      retrySchedule: [1, 2],
    })
    expect(created.body).toMatchObject({
      status: "pending",
      lastVerification: null,
      signatureEncoding: "hex",
      vaultIds: [s.h.testVaultId],
      retrySchedule: [1, 2],
    })
    expect(s.rx.received).toEqual([])
    await s.deposit()
    await s.h.sim.webhooks!.idle()
    expect(s.rx.received).toEqual([])
    const v = await s.h.admin("POST", `/_sim/webhooks/${created.body.id}/verify`)
    expect(v.body).toMatchObject({ status: "active", lastVerification: { ok: true, method: "manual", statusCode: null } })
    expect(s.rx.received).toEqual([])
  })
})

describe("refusals", () => {
  const base = () => ({ url: s.rx.url, secret: SECRET, events: ["*"] })
  it("checks attributes in the control plane's order: missing (409), unknown (409), values (400), vaults (404)", async () => {
    const post = (body: unknown) => s.h.admin("POST", "/_sim/webhooks", body)
    const missing = await post({ secret: SECRET })
    expect(missing.status).toBe(409)
    expect(missing.body.error).toMatchObject({
      code: "missing_required_attributes",
      details: [{ attribute: "url" }, { attribute: "events" }],
    })
    expect((await post({ ...base(), colour: "red" })).body.error.code).toBe("extra_body_attributes")
    const bad: Array<[string, unknown]> = [
      ["url", "ftp://example.com/x"],
      ["url", "not a url"],
      ["url", 42],
      ["url", "http://127.0.0.1/a\tb"],
      ["secret", ""],
      ["secret", "tab\tinside"],
      ["events", []],
      ["events", ["INCOMING_CONFIRMED_COIN_TX", "NOPE"]],
      ["events", ["*", "OUTGOING_MINED"]],
      ["vaultIds", ["xyz"]],
      ["signatureEncoding", "base32"],
      ["verification", "email"],
      ["retrySchedule", [0]],
      ["retrySchedule", "10s"],
    ]
    for (const [attribute, value] of bad) {
      const r = await post({ ...base(), [attribute]: value })
      expect(r.status, `${attribute}=${JSON.stringify(value)}`).toBe(400)
      expect(r.body.error).toMatchObject({ code: "invalid_data", details: [{ attribute }] })
    }
    expect((await post({ ...base(), vaultIds: ["0".repeat(24)] })).status).toBe(404)
    expect(s.rx.received).toEqual([])
    expect((await s.h.admin("GET", "/_sim/webhooks")).body.webhooks).toEqual([])
  })

  it("needs the admin token, and answers 404 for unknown subscriptions and deliveries", async () => {
    const res = await s.h.app.request(`${BASE}/_sim/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(base()),
    })
    expect(res.status).toBe(401)
    const unknown = "f".repeat(24)
    for (const [method, path] of [
      ["GET", `/_sim/webhooks/${unknown}`],
      ["POST", `/_sim/webhooks/${unknown}/verify`],
      ["GET", `/_sim/webhooks/${unknown}/deliveries`],
      ["POST", `/_sim/webhooks/${unknown}/deliveries/${unknown}/redeliver`],
    ] as const)
      expect((await s.h.admin(method, path)).status, `${method} ${path}`).toBe(404)
    const created = await s.subscribe()
    expect((await s.h.admin("POST", `/_sim/webhooks/${created.body.id}/deliveries/${unknown}/redeliver`)).status).toBe(404)
    expect((await s.h.admin("GET", `/_sim/webhooks/${created.body.id}/deliveries?limit=0`)).status).toBe(400)
    expect((await s.h.admin("GET", `/_sim/webhooks/${created.body.id}/deliveries?page=2`)).body.error.code).toBe("extra_query_attributes")
  })
})
