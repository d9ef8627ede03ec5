// docs/faults.md's worked example, run as written (only the import points at the source instead of the package):
// a payout loop that retries on 429 and 503 and, after an answer lost on the way, reconciles before paying again.
// faults-example-shown.test.ts checks that docs/faults.md shows this file's code verbatim.
import { afterAll, expect, it } from "vitest"
import { findTestAsset, startInProcess } from "../../src/testing.js"

const sim = await startInProcess({ seed: "payouts", webhooks: false })
afterAll(() => sim.close())
const client = sim.client()
const vault = sim.testVaultId

// A funded ETH address on sepolia, blocks mined as transactions come.
const account = await client.call<any>("POST", `/vaults/${vault}/vault-account`, {
  item: { name: "payouts", color: "#000000", isHiddenInDashboard: false },
})
const accountId = account.body.data.item.vaultAccountId
const eth = findTestAsset("ETH", "ethereum").assetId
const added = await client.call<any>("PUT", `/vaults/${vault}/vault-accounts/${accountId}/add-asset`, {
  item: { assetId: eth, label: "hot" },
})
const from = added.body.data.item.address
await sim.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
await sim.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address: from, assetId: eth, amount: "10" })

const pay = (payoutId: string, to: string, amount: string) =>
  client.call<any>("POST", `/vaults/${vault}/transaction-requests/single-transfer`, {
    item: { vaultAccountId: accountId, assetId: eth, fromAddress: from, toAddress: to, amount, feePriority: "standard", note: payoutId },
  })

/** Was the payout made, though its answer never came? The vault's outgoing transactions say (amounts differ). */
const alreadyPaid = async (to: string, amount: string) => {
  const list = await client.call<any>("GET", `/vaults/${vault}/transactions?limit=50`)
  return list.body.data.items.some(
    (t: any) => t.direction === "outgoing" && t.recipients.some((r: any) => r.address === to && r.amount === amount),
  )
}

/** Pays once: retries 429 and 503 after a pause, and after a lost answer pays again only if the payout is not there. */
const payOnce = async (payoutId: string, to: string, amount: string) => {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      const r = await pay(payoutId, to, amount)
      if (r.status === 429 || r.status === 503) continue
      return r.status
    } catch {
      if (await alreadyPaid(to, amount)) return 201
    }
  }
  throw new Error(`payout ${payoutId} failed 5 times`)
}

it("pays each payout exactly once through a 429, a 503 and a lost answer", async () => {
  const path = "/vaults/{vaultId}/transaction-requests/single-transfer"
  await sim.faults.add({ match: { method: "POST", path }, effect: { kind: "status", status: 429 }, times: 1 })
  await sim.faults.add({ match: { method: "POST", path }, effect: { kind: "status", status: 503 }, times: 1 })
  await sim.faults.add({ match: { method: "POST", path }, effect: { kind: "lost-answer" }, times: 1 })
  const to = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
  expect(await payOnce("payout-1", to, "0.5")).toBe(201)
  expect(await payOnce("payout-2", to, "0.25")).toBe(201)
  expect((await sim.faults.list()).map((f) => f.hits)).toEqual([1, 1, 1])
  const events = await sim.admin("GET", "/_sim/events?limit=1000")
  const requests = events.body.events.filter((e: any) => e.type === "TxRequestCreated")
  expect(requests.map((e: any) => e.data.note)).toEqual(["payout-1", "payout-2"])
  await sim.faults.clear()
})
