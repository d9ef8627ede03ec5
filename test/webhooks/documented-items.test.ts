// A receiver written from the documentation: it answers 200 to everything, echoes nothing, and validates every
// delivery's envelope strictly (only the documented fields). A scripted flow — a deposit, a request approved at two
// levels and mined, a request approved once and rejected — reaches it whole, at every version and in both encodings,
// each item with the documented fields and the request's real approval state.
import { Ajv2020 } from "ajv/dist/2020.js"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { verifyWebhookSignature } from "../../src/client/index.js"
import { createKey } from "../support/harness.js"
import { SECRET, startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

const string = { type: "string", minLength: 1 }
const count = { type: "integer", minimum: 0 }
const requestItem = {
  type: "object",
  required: ["blockchain", "network", "requestId"],
  properties: { blockchain: string, network: string, requestId: string },
}
const approvalItem = {
  type: "object",
  required: [...requestItem.required, "requiredApprovals", "requiredRejections", "currentApprovals", "currentRejections"],
  properties: {
    ...requestItem.properties,
    requiredApprovals: count,
    requiredRejections: count,
    currentApprovals: count,
    currentRejections: count,
  },
}
/** The 2025-09-23 page's envelope (spec 2026 §5.3), nothing more; items per §5.4. */
const envelope = {
  type: "object",
  additionalProperties: false,
  required: ["walletId", "webhookId", "idempotencyKey", "apiVersion", "data"],
  properties: {
    walletId: { type: "string", pattern: "^[0-9a-f]{24}$" },
    webhookId: string,
    idempotencyKey: string,
    apiVersion: { enum: ["2024-05-09", "2025-09-23", "2026-03-20"] },
    data: {
      type: "object",
      additionalProperties: false,
      required: ["event", "item"],
      properties: { event: string, item: { type: "object" } },
      allOf: [
        { if: { properties: { event: { const: "TRANSACTION_REQUEST" } } }, then: { properties: { item: requestItem } } },
        {
          if: { properties: { event: { enum: ["TRANSACTION_APPROVED", "TRANSACTION_REJECTED"] } } },
          then: { properties: { item: approvalItem } },
        },
      ],
    },
  },
}
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(envelope)

const SUBSCRIPTIONS = [
  { apiVersion: "2024-05-09", signatureEncoding: "base64" },
  { apiVersion: "2025-09-23", signatureEncoding: "hex" },
  { apiVersion: "2026-03-20", signatureEncoding: "base64" },
  { apiVersion: "2026-03-20", signatureEncoding: "hex" },
] as const

const RECIPIENT = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

describe("the documentation's receiver", () => {
  it("gets every notification of a scripted flow, each envelope strictly valid, each item as documented", async () => {
    // Answers 200 to anything, the body empty: it knows no handshake.
    s.rx.answer = () => ({ status: 200 })
    s.rx.answerVerification = () => ({ status: 200 })
    const subs = new Map<string, (typeof SUBSCRIPTIONS)[number]>()
    for (const o of SUBSCRIPTIONS) {
      const r = await s.subscribe(o)
      expect([r.status, r.body.status]).toEqual([201, "active"])
      subs.set(r.body.id as string, o)
    }
    const creds = await createKey(s.h, { apiVersion: "2024-05-09" })
    const client = s.h.clientFor(creds)
    const vault = s.h.testVaultId
    const deposit = await s.deposit("1")
    const address = await s.addressOf(vault)
    expect((await s.h.admin("PUT", `/_sim/vaults/${vault}/approval-policy`, { mode: "manual", levels: 2 })).status).toBe(200)
    const ask = async () => {
      const r = await client.call<any>("POST", `/vaults/${vault}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
        item: { amount: "0.1", feePriority: "standard", recipientAddress: RECIPIENT },
      })
      expect(r.status).toBe(201)
      const id = r.body.data.item.transactionRequestId as string
      const read = await client.call<any>("GET", `/transactionRequests/${id}`)
      expect(read.body.data.item.transactionRequestStatus).toBe("await-approval")
      return { id, transactionId: read.body.data.item.transactionId as string }
    }
    const decide = async (verb: "approve" | "reject", id: string) =>
      expect((await s.h.admin("POST", `/_sim/transaction-requests/${id}/${verb}`, {})).status).toBe(200)
    const mined = await ask()
    await decide("approve", mined.id)
    await decide("approve", mined.id)
    const rejected = await ask()
    await decide("approve", rejected.id)
    await decide("reject", rejected.id)

    const perSubscription = [
      "INCOMING_CONFIRMED_COIN_TX",
      "TRANSACTION_REQUEST",
      "TRANSACTION_APPROVED",
      "OUTGOING_MINED",
      "TRANSACTION_REQUEST",
      "TRANSACTION_REJECTED",
    ]
    await s.rx.waitFor(perSubscription.length * SUBSCRIPTIONS.length)
    await s.h.sim.webhooks!.idle()
    // Nothing but notifications reached the receiver.
    expect(s.rx.received).toHaveLength(perSubscription.length * SUBSCRIPTIONS.length)

    for (const [webhookId, o] of subs) {
      const got = s.rx.received.filter((r) => r.body?.webhookId === webhookId)
      expect(got.map((r) => r.body.data.event).sort()).toEqual([...perSubscription].sort())
      for (const r of got) {
        expect(validate(r.body), JSON.stringify(validate.errors)).toBe(true)
        expect(r.body).toMatchObject({ walletId: vault, apiVersion: o.apiVersion })
        const signature = r.headers["x-signature"] as string
        expect(signature).toMatch(o.signatureEncoding === "hex" ? /^[0-9a-f]{64}$/ : /^[A-Za-z0-9+/]{43}=$/)
        expect(verifyWebhookSignature({ body: r.raw, signature, secret: SECRET, encoding: o.signatureEncoding })).toBe(true)
      }
      const item = (event: string, request: { id: string } | undefined) =>
        got.find((r) => r.body.data.event === event && (request === undefined || r.body.data.item.requestId === request.id))?.body.data.item
      expect(item("INCOMING_CONFIRMED_COIN_TX", undefined)).toMatchObject({
        transactionId: deposit,
        blockchain: "ethereum",
        network: "sepolia",
      })
      for (const request of [mined, rejected]) {
        // The request's id under the documented name and the REST one, and the transaction id its REST answer shows.
        expect(item("TRANSACTION_REQUEST", request)).toMatchObject({
          blockchain: "ethereum",
          network: "sepolia",
          requestId: request.id,
          transactionRequestId: request.id,
          transactionId: request.transactionId,
        })
      }
      expect(item("TRANSACTION_APPROVED", mined)).toMatchObject({
        requestId: mined.id,
        transactionId: mined.transactionId,
        requiredApprovals: 2,
        requiredRejections: 1,
        currentApprovals: 2,
        currentRejections: 0,
      })
      expect(item("OUTGOING_MINED", mined)).toMatchObject({
        requestId: mined.id,
        transactionRequestId: mined.id,
        transactionId: mined.transactionId,
      })
      expect(item("TRANSACTION_REJECTED", rejected)).toMatchObject({
        requestId: rejected.id,
        transactionId: rejected.transactionId,
        requiredApprovals: 2,
        requiredRejections: 1,
        currentApprovals: 1,
        currentRejections: 1,
      })
      // The control plane's delivery log shows the very bodies sent.
      const logged = (await s.deliveriesOf(webhookId)).map((d: { payload: unknown }) => d.payload)
      expect(logged).toEqual(expect.arrayContaining(got.map((r) => r.body)))
    }
  })

  it("a request approved by policy: TRANSACTION_APPROVED tells no approval was needed nor given", async () => {
    s.rx.answer = () => ({ status: 200 })
    const sub = (await s.subscribe({ apiVersion: "2026-03-20", events: ["TRANSACTION_APPROVED"] })).body
    await s.deposit("1")
    const address = await s.addressOf(s.h.testVaultId)
    const client = s.h.clientFor(await createKey(s.h, { apiVersion: "2024-05-09" }))
    const r = await client.call<any>("POST", `/vaults/${s.h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.1", feePriority: "standard", recipientAddress: RECIPIENT },
    })
    expect(r.status).toBe(201)
    await s.rx.waitFor(1)
    const [d] = s.rx.deliveries()
    expect(validate(d!.body), JSON.stringify(validate.errors)).toBe(true)
    expect(d!.body).toMatchObject({ webhookId: sub.id, data: { event: "TRANSACTION_APPROVED" } })
    expect(d!.body.data.item).toMatchObject({
      requestId: r.body.data.item.transactionRequestId,
      requiredApprovals: 0,
      requiredRejections: 1,
      currentApprovals: 0,
      currentRejections: 0,
    })
  })
})
