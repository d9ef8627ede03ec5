// Webhook test scenarios: a harness, a real receiver, and confirmed deposits on demand (auto mining, 1 confirmation).
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"
import { startReceiver, type Receiver } from "./receiver.js"
import type { SimulatorOptions } from "../../src/simulator.js"

export interface Scenario {
  readonly h: Harness
  readonly rx: Receiver
  /** The ETH address deposits go to in a vault (created on first use). */
  readonly addressOf: (vaultId: string) => Promise<string>
  /** An ETH deposit to the vault's address, credited at once; returns its transaction id. */
  readonly deposit: (amount?: string, vaultId?: string) => Promise<string>
  readonly subscribe: (body?: Record<string, unknown>) => Promise<{ status: number; body: any }>
  readonly deliveriesOf: (webhookId: string, query?: string) => Promise<Array<any>>
  readonly advance: (seconds: number) => Promise<void>
  readonly close: () => Promise<void>
}

export const SECRET = "whsec-test-secret"

export const startScenario = async (sim: Partial<SimulatorOptions> = {}, harness?: Harness): Promise<Scenario> => {
  const h = harness ?? (await startHarness({ sim }))
  const rx = await startReceiver()
  const addresses = new Map<string, string>()
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const addressOf = async (vaultId: string) => {
    const known = addresses.get(vaultId)
    if (known !== undefined) return known
    const acct = await h.client.call<any>("POST", `/vaults/${vaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
    const r = await h.client.call<any>("PUT", `/vaults/${vaultId}/vault-accounts/${acct.body.data.item.vaultAccountId}/add-asset`, {
      item: { assetId: assetId("ethereum", "sepolia", "ETH"), label: "eth" },
    })
    const address = r.body.data.item.address as string
    addresses.set(vaultId, address)
    return address
  }
  return {
    h,
    rx,
    addressOf,
    deposit: async (amount = "1", vaultId = h.testVaultId) => {
      const address = await addressOf(vaultId)
      const r = await h.admin("POST", "/_sim/deposits", {
        blockchain: "ethereum",
        network: "sepolia",
        address,
        assetId: assetId("ethereum", "sepolia", "ETH"),
        amount,
      })
      if (r.status !== 201) throw new Error(`deposit failed: ${JSON.stringify(r.body)}`)
      return r.body.transactionId as string
    },
    // Pinned to 2024-05-09 unless `body` names a version (a subscription without one gets the newest).
    subscribe: (body = {}) =>
      h.admin("POST", "/_sim/webhooks", { url: rx.url, secret: SECRET, events: ["*"], apiVersion: "2024-05-09", ...body }),
    deliveriesOf: async (webhookId, query = "") =>
      (await h.admin<any>("GET", `/_sim/webhooks/${webhookId}/deliveries${query}`)).body.deliveries,
    advance: async (seconds) => {
      const r = await h.admin("POST", "/_sim/clock/advance", { seconds })
      if (r.status !== 200) throw new Error(`advance failed: ${JSON.stringify(r.body)}`)
    },
    close: async () => {
      await h.close()
      await rx.close()
    },
  }
}
