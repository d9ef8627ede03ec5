// EVM addresses are case-insensitive on chain; the simulator keeps one form, the checksummed one it derived, for a
// deposit to a lowercase (or uppercase) spelling of a vault address and for an external sender's address.
import { afterEach, beforeEach, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"

let h: Harness
beforeEach(async () => {
  h = await startHarness()
})
afterEach(async () => h.close())

const ETH = assetId("ethereum", "sepolia", "ETH")

it("a deposit to a lowercase EVM address is listed, credited and audited under the derived checksummed address", async () => {
  const acct = (
    await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const address = (
    await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: ETH, label: "a" } })
  ).body.data.item.address as string
  expect(address).not.toBe(address.toLowerCase())
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 1 })
  const sender = "0x52908400098527886e0f7030069857d2e4169ee7"
  for (const spelling of [address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`]) {
    const dep = await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address: spelling,
      assetId: ETH,
      amount: "1",
      fromAddress: sender,
    })
    expect(dep.status).toBe(201)
  }
  await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })

  const list = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)
  const recipients = list.body.data.items.flatMap((t: { recipients: Array<{ address: string }> }) => t.recipients.map((r) => r.address))
  const senders = list.body.data.items.flatMap((t: { senders: Array<{ address: string }> }) => t.senders.map((r) => r.address))
  expect(recipients).toEqual([address, address])
  // The sender in its EIP-55 form, as the spec's own examples write EVM addresses.
  expect(senders).toEqual(["0x52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886E0F7030069857D2E4169EE7"])
  const assets = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/addresses/${address.toLowerCase()}/assets`)
  expect(assets.body.data.item.assets[0].assetData.totalAmount).toBe("2")
  const audit = await h.admin("GET", "/_sim/audit")
  expect([audit.body.ok, audit.body.discrepancies]).toEqual([true, []])
})
