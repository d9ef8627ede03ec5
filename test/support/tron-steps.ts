// Tron steps after the scripted scenario (not part of the golden one): an address funded, TRX frozen for energy
// and bandwidth, a transfer paid from the stake, an unfreeze and a day of regeneration.
import { expect } from "vitest"
import { assetId } from "./catalogue.js"
import type { Harness } from "./harness.js"

export const runTronSteps = async (h: Harness, vaultId: string): Promise<string> => {
  const trx = assetId("tron", "nile", "TRX")
  const ok = <T extends { status: number }>(r: T) => {
    expect(r.status, JSON.stringify(r)).toBeLessThan(300)
    return r
  }
  ok(await h.admin("PUT", "/_sim/chains/tron/nile/mining", { mode: "auto", confirmations: 2 }))
  const acct = ok(
    await h.client.call<any>("POST", `/vaults/${vaultId}/vault-account`, {
      item: { name: "tron", color: "#000000", isHiddenInDashboard: false },
    }),
  ).body.data.item.vaultAccountId
  const address = ok(
    await h.client.call<any>("PUT", `/vaults/${vaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: trx, label: "tron" } }),
  ).body.data.item.address as string
  ok(await h.admin("POST", "/_sim/deposits", { blockchain: "tron", network: "nile", address, assetId: trx, amount: "5000" }))
  ok(await h.admin("POST", "/_sim/chains/tron/nile/mine", { blocks: 1 }))
  await h.admin("PUT", `/_sim/vaults/${vaultId}/approval-policy`, { mode: "auto" })
  const manage = async (item: Record<string, unknown>) =>
    ok(await h.client.call<any>("POST", `/vaults/${vaultId}/tron/nile/addresses/${address}/manage-resource`, { item }))
  await manage({ type: "freeze", resource: "energy", amount: "2000" })
  await manage({ type: "freeze", resource: "bandwidth", amount: "1000" })
  ok(
    await h.client.call<any>("POST", `/vaults/${vaultId}/tron/nile/addresses/${address}/feeless-transaction-requests`, {
      item: { amount: "10", recipientAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
    }),
  )
  ok(await h.admin("POST", "/_sim/clock/advance", { seconds: 3600 }))
  await manage({ type: "unfreeze", resource: "energy", amount: "500" })
  ok(await h.admin("POST", "/_sim/chains/tron/nile/mine", { blocks: 2 }))
  ok(await h.admin("POST", "/_sim/clock/advance", { seconds: 86_400 }))
  // A block after the day, so that the log's last event is at the clock's time (a read "now" then equals one as of the head).
  ok(await h.admin("POST", "/_sim/chains/tron/nile/mine", { blocks: 1 }))
  return address
}
