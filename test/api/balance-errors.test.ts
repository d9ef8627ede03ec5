// insufficient_balance names amounts in the asset's unit ("1.5 ETH"), never in base units: a withdrawal beyond what
// an address holds, over a real socket, at 2026-03-20; nothing written.
import { afterAll, beforeAll, expect, it } from "vitest"
import { CustodyClient } from "../../src/client/index.js"
import { findTestAsset } from "../../src/testing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

const ETH = findTestAsset("ETH", "ethereum")
let h: Harness
let server: { url: string; close: () => Promise<void> }
let client: CustodyClient
beforeAll(async () => {
  h = await startHarness({ apiVersion: "2026-03-20" })
  server = await listen(h.app)
  client = new CustodyClient({ baseUrl: server.url, credentials: h.creds })
})
afterAll(async () => {
  await server?.close()
  await h?.close()
})

it("a withdrawal beyond the balance: the amounts requested and available in ETH", async () => {
  const vault = h.testVaultId
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const account = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${vault}/vault-account`, {
    item: { name: "a", color: "#000000", isHiddenInDashboard: false },
  })
  const vaultAccountId = account.body.data.item.vaultAccountId
  const added = await client.call<{ item: { address: string } }>("PUT", `/vaults/${vault}/vault-accounts/${vaultAccountId}/add-asset`, {
    item: { assetId: ETH.assetId, label: "a" },
  })
  const address = added.body.data.item.address
  expect(
    (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH.assetId, amount: "0.2" }))
      .status,
  ).toBe(201)
  const before = (await h.admin("GET", "/_sim/events?limit=1000")).body.events.length
  const r = await client.call<never>("POST", `/vaults/${vault}/transaction-requests/single-transfer`, {
    item: {
      vaultAccountId,
      assetId: ETH.assetId,
      fromAddress: address,
      toAddress: "0x000000000000000000000000000000000000dEaD",
      amount: "1.5",
      feePriority: "standard",
      note: "too much",
    },
  })
  expect(r.status).toBe(400)
  const error = (r.body as unknown as { error: { code: string; message: string } }).error
  expect(error.code).toBe("insufficient_balance")
  // Needed is the amount plus the maximum fee: 1.5 ETH and a few decimals more.
  expect(error.message).toMatch(
    new RegExp(`^Insufficient balance at ${address}: 1\\.5[0-9]+ ETH requested \\(amount plus maximum fee\\), 0\\.2 ETH available\\.$`),
  )
  expect((await h.admin("GET", "/_sim/events?limit=1000")).body.events.length).toBe(before)
})
