// A fixture's asset ids in webhook payloads: a subscriber sees the workspace's id of an asset, as the API's answers
// show it, at every version; the log keeps the catalogue's.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetsOf } from "../../src/domain/chains/index.js"
import { startHarness, type Harness } from "../support/harness.js"
import { startReceiver, type Receiver } from "./receiver.js"

const ETH = assetsOf({ blockchain: "ethereum", network: "sepolia" }).find((a) => a.symbol === "ETH")!
// An id as the real service writes them (24 hex digits), unknown to the catalogue.
const MY_ETH = "6523e058a06ebf1322d7dd6f"
const TO = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const VERSIONS = ["2024-05-09", "2025-09-23", "2026-03-20"] as const

let h: Harness
let rx: Receiver
const hooks = new Map<string, string>()

beforeAll(async () => {
  h = await startHarness({
    fixture: {
      vaults: [{ name: "Ops", type: "test" }],
      apiKeys: [{ name: "ops", apiVersion: "2026-03-20", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
      assets: [{ assetId: MY_ETH, blockchain: "ethereum", network: "sepolia", symbol: "ETH" }],
    },
  })
  rx = await startReceiver()
  for (const apiVersion of VERSIONS) {
    const r = await h.admin("POST", "/_sim/webhooks", { url: rx.url, secret: "whsec-test", events: ["TRANSACTION_REQUEST"], apiVersion })
    expect(r.status).toBe(201)
    hooks.set(r.body.id as string, apiVersion)
  }
})
afterAll(async () => {
  await h?.close()
  await rx?.close()
})

describe("webhook payloads under a fixture's asset ids", () => {
  it("name the asset by the fixture's id in every version, recipients included; the log keeps the catalogue's", async () => {
    const call = (method: string, url: string, item: unknown, creds = h.creds) =>
      h.raw({ method, url, creds, body: JSON.stringify({ data: { item } }) })
    const vault = h.testVaultId
    const made = await call("POST", `/vaults/${vault}/vault-account`, { name: "alice", color: "#00AA00", isHiddenInDashboard: false })
    expect(made.status).toBe(201)
    const account = made.body.data.item.vaultAccountId as string
    const added = await call("PUT", `/vaults/${vault}/vault-accounts/${account}/add-asset`, { assetId: MY_ETH, label: "eth" })
    expect(added.status).toBe(200)
    const address = added.body.data.item.address as string
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
    expect(
      (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: MY_ETH, amount: "2" }))
        .status,
    ).toBe(201)
    const sent = await call("POST", `/vaults/${vault}/transaction-requests/single-transfer`, {
      vaultAccountId: account,
      assetId: MY_ETH,
      amount: "0.5",
      fromAddress: address,
      toAddress: TO,
      feePriority: "standard",
      note: "aliased",
    })
    expect(sent.status).toBe(201)
    const requestId = sent.body.data.item.transactionRequestId as string

    await rx.waitFor(VERSIONS.length)
    await h.sim.webhooks!.idle()
    const byVersion = new Map(rx.deliveries().map((d) => [hooks.get(d.body.webhookId as string)!, d]))
    for (const version of VERSIONS) {
      const d = byVersion.get(version)!
      expect(d.body.apiVersion, version).toBe(version)
      expect(d.body.data.event).toBe("TRANSACTION_REQUEST")
      expect(d.body.data.item.transactionRequestId).toBe(requestId)
      expect(d.body.data.item.assetId, version).toBe(MY_ETH)
      // The bytes the subscriber got (and the signature covers) never name the catalogue's id.
      expect(d.raw.toString("utf8"), version).not.toContain(ETH.id)
      // The control plane shows the payload as it was sent.
      const [logged] = (await h.admin("GET", `/_sim/webhooks/${d.body.webhookId}/deliveries`)).body.deliveries
      expect(logged.payload, version).toEqual(d.body)
    }
    // From 2025-09-23 on, recipients are objects naming their asset.
    expect(byVersion.get("2024-05-09")!.body.data.item.recipients).toBe(TO)
    for (const version of ["2025-09-23", "2026-03-20"])
      expect(byVersion.get(version)!.body.data.item.recipients, version).toEqual([
        expect.objectContaining({ address: TO, amount: "0.5", assetId: MY_ETH }),
      ])

    const events = (await h.admin("GET", "/_sim/events?limit=1000")).body.events as Array<{ type: string; data: unknown }>
    const raised = JSON.stringify(events.filter((e) => e.type === "NotificationRaised"))
    expect(raised).toContain(ETH.id)
    expect(raised).not.toContain(MY_ETH)
  })
})
