// The EVM chain view after the world is rebuilt: a revert to a snapshot, a reset and a replayed log each show the
// same chain again, byte for byte (blocks, transactions, receipts, logs, balances), and nothing kept from the
// world before (a block, a log, an eth_getLogs answer kept for the next poll) is shown after it.
import { request } from "undici"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { assetId } from "../../support/catalogue.js"
import { startHarness, type Harness } from "../../support/harness.js"
import { exportText, importText } from "../../support/log-file.js"
import { listen } from "../../support/server.js"

const USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeEach(async () => {
  h = await startHarness()
  server = await listen(h.app)
})
afterEach(async () => {
  await server.close()
  await h.close()
})

/** One JSON-RPC request over a socket: its answer's text, as sent. */
const rpcText = async (url: string, body: unknown): Promise<string> => {
  const r = await request(`${url}/_chain/ethereum/sepolia`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  expect(r.statusCode).toBe(200)
  return r.body.text()
}
const call = (method: string, params: ReadonlyArray<unknown>, id: number) => ({ jsonrpc: "2.0", id, method, params })

const deposit = async (address: string, symbol: string, amount: string): Promise<string> => {
  const r = await h.admin("POST", "/_sim/deposits", {
    blockchain: "ethereum",
    network: "sepolia",
    address,
    assetId: assetId("ethereum", "sepolia", symbol),
    amount,
  })
  expect(r.status).toBe(201)
  return r.body.transactionId
}

/** A vault address (the first the workspace gives) with 1 ETH and 100 USDC deposited, each mined in a block of its own. */
const funded = async (): Promise<{ address: string; ids: Array<string> }> => {
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const acct = (
    await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const add = (item: object) => h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })
  const address = (await add({ assetId: assetId("ethereum", "sepolia", "ETH"), label: "w" })).body.data.item.address as string
  await add({ assetId: assetId("ethereum", "sepolia", "USDC"), address })
  return { address, ids: [await deposit(address, "ETH", "1"), await deposit(address, "USDC", "100")] }
}

/** What a deposit monitor reads of the chain, as the bytes the façade answers: the tip block, the logs, balances and receipts. */
const chainSeen = (url: string, address: string, ids: ReadonlyArray<string>): Promise<string> => {
  const balanceOf = `0x70a08231${address.slice(2).toLowerCase().padStart(64, "0")}`
  return rpcText(url, [
    call("eth_blockNumber", [], 1),
    call("eth_getBlockByNumber", ["latest", true], 2),
    call("eth_getLogs", [{ address: USDC, fromBlock: "earliest", toBlock: "latest" }], 3),
    call("eth_getBalance", [address, "latest"], 4),
    call("eth_call", [{ to: USDC, data: balanceOf }, "latest"], 5),
    ...ids.flatMap((id, i) => [call("eth_getTransactionByHash", [id], 10 + i), call("eth_getTransactionReceipt", [id], 20 + i)]),
  ])
}

const logsOf = async (url: string): Promise<Array<{ transactionHash: string }>> =>
  JSON.parse(await rpcText(url, call("eth_getLogs", [{ address: USDC, fromBlock: "earliest", toBlock: "latest" }], 1))).result

describe("the EVM chain view when the world is rebuilt", () => {
  it("a kept eth_getLogs answer is the same bytes again, and a log mined after it is in the next answer", async () => {
    const { address, ids } = await funded()
    const first = await chainSeen(server.url, address, ids)
    expect(await chainSeen(server.url, address, ids)).toBe(first)
    expect((await logsOf(server.url)).map((l) => l.transactionHash)).toEqual([ids[1]])
    const later = await deposit(address, "USDC", "5")
    expect((await logsOf(server.url)).map((l) => l.transactionHash)).toEqual([ids[1], later])
    // In a batch, the kept answer sits between answers written as JSON: the batch is one JSON list.
    const batch = JSON.parse(
      await rpcText(server.url, [
        call("eth_getLogs", [{ address: USDC, fromBlock: "earliest", toBlock: "latest" }], 1),
        call("eth_chainId", [], 2),
      ]),
    )
    expect(batch.map((a: any) => a.id)).toEqual([1, 2])
    expect(batch[0].result).toHaveLength(2)
  })

  it("after a revert shows the chain as at the snapshot; what is mined next is on it, what was reverted is not", async () => {
    const { address, ids } = await funded()
    const atSnapshot = await chainSeen(server.url, address, ids)
    const snapshot = (await h.admin("POST", "/_sim/snapshots", {})).body.id
    const later = await deposit(address, "USDC", "5")
    expect(await chainSeen(server.url, address, [...ids, later])).not.toBe(atSnapshot)
    expect((await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`, {})).status).toBe(200)
    expect(await chainSeen(server.url, address, ids)).toBe(atSnapshot)
    expect(JSON.parse(await rpcText(server.url, call("eth_getTransactionByHash", [later], 1))).result).toBeNull()
    // The next deposit is another transaction (a revert starts a new epoch), mined at the height the reverted one had.
    const next = await deposit(address, "USDC", "7")
    const logs = await logsOf(server.url)
    expect(logs.map((l) => l.transactionHash)).toEqual([ids[1], next])
    const tip = JSON.parse(await rpcText(server.url, call("eth_getBlockByNumber", ["latest", false], 1))).result
    expect(tip.transactions).toEqual([next])
    expect(JSON.parse(await rpcText(server.url, call("eth_getBalance", [address, "latest"], 1))).result).toBe("0xde0b6b3a7640000")
  })

  it("after a reset shows the empty chain of start-up; what is mined next is on it, nothing from before", async () => {
    const outside = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
    const empty = await chainSeen(server.url, outside, [])
    const before = await funded()
    await chainSeen(server.url, before.address, before.ids)
    expect((await h.admin("POST", "/_sim/reset", {})).status).toBe(200)
    expect(await chainSeen(server.url, outside, [])).toBe(empty)
    expect(await logsOf(server.url)).toEqual([])
    expect(JSON.parse(await rpcText(server.url, call("eth_getBalance", [before.address, "latest"], 1))).result).toBe("0x0")
    for (const id of before.ids) expect(JSON.parse(await rpcText(server.url, call("eth_getTransactionByHash", [id], 1))).result).toBeNull()
    const after = await funded()
    expect((await logsOf(server.url)).map((l) => l.transactionHash)).toEqual([after.ids[1]])
    const seen = JSON.parse(await chainSeen(server.url, after.address, after.ids))
    expect(seen[0].result).toBe("0x2")
    expect(seen[3].result).toBe("0xde0b6b3a7640000")
  })

  it("a replay of the log into a fresh simulator shows the same chain", async () => {
    const { address, ids } = await funded()
    const later = await deposit(address, "USDC", "5")
    const seen = await chainSeen(server.url, address, [...ids, later])
    const text = await exportText(h)
    const b = await startHarness({ sim: { defaultWorkspace: false, seed: "harness" } })
    const other = await listen(b.app)
    try {
      expect((await importText(b, text)).status).toBe(200)
      expect(await chainSeen(other.url, address, [...ids, later])).toBe(seen)
    } finally {
      await other.close()
      await b.close()
    }
  })
})
