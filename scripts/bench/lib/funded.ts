// A bench simulator with a funded vault account: ETH and USDC on sepolia at one address, credited.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createApp } from "../../../src/api/app.js"
import { CustodyClient } from "../../../src/client/index.js"
import { assetsOf } from "../../../src/domain/chains/index.js"
import { createSimulator } from "../../../src/simulator.js"
import { makeMemoryStore } from "../../../src/store/memory.js"
import { makeSqliteStore } from "../../../src/store/sqlite.js"
import { benchFixture, type BenchSimulator } from "./simulator.js"

export interface FundedBench extends BenchSimulator {
  readonly vaultId: string
  readonly vaultAccountId: string
  readonly address: string
  readonly ethId: string
}

export const startFundedBench = async (
  options: { store?: "memory" | "sqlite"; approval?: "auto" | "manual" } = {},
): Promise<FundedBench> => {
  const dir = options.store === "sqlite" ? mkdtempSync(join(tmpdir(), "custody-sim-bench-")) : undefined
  const store = dir !== undefined ? makeSqliteStore({ file: join(dir, "events.sqlite") }) : makeMemoryStore()
  const sim = await createSimulator({ store, fixture: benchFixture, clock: { frozenAt: Date.UTC(2026, 0, 1) } })
  const app = createApp(sim, { log: { error: () => {}, info: () => {} } })
  const creds = sim.createdCredentials[0]!
  const creds2026 = sim.createdCredentials[1]!
  const client = new CustodyClient({ baseUrl: "http://bench", credentials: creds, fetch: (r) => Promise.resolve(app.fetch(r)) })
  const admin = (method: string, path: string, body: unknown) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  const vaultId = sim.models.workspace.vaultList(undefined).find((v) => v.profile.type === "test")!.profile.vaultId
  const sepolia = assetsOf({ blockchain: "ethereum", network: "sepolia" })
  const ethId = sepolia.find((a) => a.symbol === "ETH")!.id
  const usdcId = sepolia.find((a) => a.symbol === "USDC")!.id
  const acct = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${vaultId}/vault-account`, {
    item: { name: "bench", color: "#000000", isHiddenInDashboard: false },
  })
  const vaultAccountId = acct.body.data.item.vaultAccountId
  const added = await client.call<{ item: { address: string } }>("PUT", `/vaults/${vaultId}/vault-accounts/${vaultAccountId}/add-asset`, {
    item: { assetId: ethId, label: "bench" },
  })
  const address = added.body.data.item.address
  await client.call("PUT", `/vaults/${vaultId}/vault-accounts/${vaultAccountId}/add-asset`, { item: { assetId: usdcId, address } })
  await admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  await admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ethId, amount: "1000000000" })
  await admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: usdcId, amount: "1000000" })
  if (options.approval === "manual") await admin("PUT", `/_sim/vaults/${vaultId}/approval-policy`, { mode: "manual", levels: 1 })
  return {
    sim,
    app,
    creds,
    creds2026,
    vaultId,
    vaultAccountId,
    address,
    ethId,
    close: async () => {
      await sim.close()
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    },
  }
}
