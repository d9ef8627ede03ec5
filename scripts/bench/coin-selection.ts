// Coin selection over an account holding many outputs: approximate-fee for a multiple-transfer (the selection and
// fee model its execution uses), signed, in process. Prints the CPU per estimate; no budget (the issue gives none).
//
//   npx tsx scripts/bench/coin-selection.ts [--outputs 400] [--recipients 100] [--count 200]
import { signRequest } from "../../src/client/index.js"
import { assetsOf } from "../../src/domain/chains/index.js"
import { startFundedBench } from "./lib/funded.js"
import { count as positive } from "./lib/flags.js"
import { loadavg } from "node:os"
import { parseArgs } from "node:util"

const { values } = parseArgs({
  options: {
    outputs: { type: "string", default: "400" },
    recipients: { type: "string", default: "100" },
    count: { type: "string", default: "200" },
  },
})
const outputs = positive("outputs", values.outputs)
const recipients = positive("recipients", values.recipients)
const count = positive("count", values.count)

const bench = await startFundedBench()
try {
  const btc = assetsOf({ blockchain: "bitcoin", network: "testnet" }).find((a) => a.symbol === "BTC")!.id
  const signed = (method: string, url: string, item: unknown, creds = bench.creds) => {
    const body = JSON.stringify({ data: { item } })
    return { method, headers: signRequest(creds, { method, url, body }), body }
  }
  const admin = (method: string, path: string, body: unknown) =>
    bench.app.request(path, {
      method,
      headers: { authorization: `Bearer ${bench.sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  const addAsset = `/vaults/${bench.vaultId}/vault-accounts/${bench.vaultAccountId}/add-asset`
  const added = await bench.app.request(addAsset, signed("PUT", addAsset, { assetId: btc, label: "utxo" }))
  const address = ((await added.json()) as { data: { item: { address: string } } }).data.item.address
  await admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 1 })
  // Equal amounts: every comparison of the selection's sort is a tie broken by the outpoint.
  for (let i = 0; i < outputs; i++)
    await admin("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: btc, amount: "0.0001" })
  const url = `/vaults/${bench.vaultId}/approximate-fee`
  // Four fifths of the account: the selection adds most of its outputs before they cover the amounts and the fee.
  const amount = ((outputs * 10_000 * 0.8) / recipients / 1e8).toFixed(8)
  const item = {
    transactionType: "multiple",
    vaultAccountId: bench.vaultAccountId,
    assetId: btc,
    recipients: Array.from({ length: recipients }, () => ({ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount })),
    feePriority: "standard",
    prepareStrategy: "minimize_dust",
  }
  const request = signed("POST", url, item, bench.creds2026)
  const once = async () => {
    const res = await bench.app.request(url, request)
    if (res.status !== 200) throw new Error(`approximate-fee answered ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }
  for (let i = 0; i < 20; i++) await once()
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < count; i++) await once()
  const used = process.cpuUsage(cpu)
  console.log(
    `approximate-fee, multiple-transfer over ${outputs} outputs to ${recipients} recipients: ${((used.user + used.system) / count).toFixed(0)} µs CPU per estimate, ` +
      `${(((performance.now() - started) * 1000) / count).toFixed(0)} µs wall (load ${loadavg()[0]!.toFixed(1)})`,
  )
} finally {
  await bench.close()
}
