// The EVM chain view's reads over a long chain, in process: p99 latency of app.fetch for eth_getBalance and for
// eth_getLogs with an address filter over the whole range (issue budget ≤ 2 ms at 100k blocks).
// Run alone: `npx tsx scripts/bench/chain-views.ts [--deposits N] [--blocks N] [--requests N]`.
import { assetsOf, findNetwork } from "../../src/domain/chains/index.js"
import { startInProcess } from "../../src/testing/in-process.js"
import { median, quantile } from "./lib/stats.js"

const flag = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : Number(process.argv[i + 1])
}
const deposits = flag("deposits", 2_000)
const blocks = flag("blocks", 100_000)
const requests = flag("requests", 500)

const sim = await startInProcess({ seed: "bench-chain-views", frozenAt: Date.UTC(2026, 0, 1) })
const admin = (method: "GET" | "POST" | "PUT", path: string, body?: unknown) => sim.admin<any>(method, path, body)
const client = sim.client()
const ETH = findNetwork("ethereum", "sepolia")!.nativeAssetId
const USDC = assetsOf({ blockchain: "ethereum", network: "sepolia", symbol: "USDC" })[0]!
const acct = (
  await client.call<any>("POST", `/vaults/${sim.testVaultId}/vault-account`, {
    item: { name: "a", color: "#000000", isHiddenInDashboard: false },
  })
).body.data.item.vaultAccountId
const add = (item: object) => client.call<any>("PUT", `/vaults/${sim.testVaultId}/vault-accounts/${acct}/add-asset`, { item })
const address = (await add({ assetId: sim.sim.assetIds.toWire(ETH), label: "w" })).body.data.item.address as string
await add({ assetId: sim.sim.assetIds.toWire(USDC.id), address })
await admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
for (let i = 0; i < deposits; i++)
  await admin("POST", "/_sim/deposits", {
    blockchain: "ethereum",
    network: "sepolia",
    address,
    assetId: sim.sim.assetIds.toWire(USDC.id),
    amount: "1",
  })
await admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: Math.min(1_000_000, Math.max(1, blocks - deposits)) })

const rpc = async (method: string, params: ReadonlyArray<unknown>): Promise<number> => {
  const t0 = performance.now()
  const r = await sim.app.request("http://127.0.0.1/_chain/ethereum/sepolia", {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  })
  await r.text()
  return performance.now() - t0
}
const measure = async (method: string, params: ReadonlyArray<unknown>) => {
  const ms: Array<number> = []
  for (let i = 0; i < requests; i++) ms.push(await rpc(method, params))
  return { p50: median(ms), p99: quantile(ms, 0.99) }
}
const figures = {
  deposits,
  blocks,
  requests,
  getBalance: await measure("eth_getBalance", [address, "latest"]),
  getLogs: await measure("eth_getLogs", [
    { address: USDC.type === "TOKEN" ? USDC.contract : "", fromBlock: "earliest", toBlock: "latest" },
  ]),
}
console.log(JSON.stringify(figures, null, 2))
await sim.close()
