// The race of the 2026 transfer kinds over a real socket (test/support/transfer-race.ts): 100 requests of single,
// gas-sponsored, batch, multiple and utxo transfers at once over one funded ETH address and one funded BTC address.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient, type Credentials } from "../../src/client/index.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { eventually } from "../support/sim-process.js"
import { runTransferRace, type RaceNode } from "../support/transfer-race.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness({ sim: { webhooks: false } })
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
})
afterAll(async () => {
  await server?.close()
  await h?.close()
})

const node = (): RaceNode => ({
  call: async (creds: Credentials, method, path, item) => {
    const r = await new CustodyClient({ baseUrl: server.url, credentials: creds }).call<any>(
      method,
      path,
      item === undefined ? {} : { item },
    )
    return { status: r.status, body: r.body }
  },
  admin: async (method, path, body) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${h.sim.adminToken}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    return { status: res.status, body: await res.json() }
  },
})

describe("100 concurrent transfers of mixed kinds on one node", () => {
  it("no overdraft, no output spent twice, every accepted request mined, the vault's totals changed by exactly the fees", async () => {
    const creds = await createKey(h, { apiVersion: "2026-03-20", rateLimit: { perSecond: 100_000, burst: 100_000 } })
    // Settlement runs before each answer on one node: a bounded wait only guards against a stuck follow-up.
    const settled = async (probe: (n: RaceNode) => Promise<boolean>) => void (await eventually(() => probe(node()), 120_000))
    const outcome = await runTransferRace([node()], creds, h.creds, h.testVaultId, settled)
    console.log(`transfer race, one node: ${JSON.stringify(outcome)}`)
    expect(Object.values(outcome.accepted).reduce((a, b) => a + b, 0)).toBeLessThan(100)
  }, 300_000)
})
