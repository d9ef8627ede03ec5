// The EVM chain view's JSON-RPC protocol over a socket: batches, notifications, the error objects of bad input,
// an unknown network, the server's Host check; none of it writes anything.
import { request } from "undici"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { guardHosts } from "../../../src/api/host-guard.js"
import { startHarness, type Harness } from "../../support/harness.js"
import { listen } from "../../support/server.js"

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

const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
  const r = await request(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
  const text = await r.body.text()
  return { status: r.statusCode, body: text === "" ? undefined : JSON.parse(text) }
}
const rpc = (body: unknown, path = "/_chain/ethereum/sepolia") => post(path, JSON.stringify(body))
const call = (method: string, params: ReadonlyArray<unknown> = [], id: number | string = 1) => ({ jsonrpc: "2.0", id, method, params })

describe("EVM JSON-RPC protocol", () => {
  it("answers a batch in order, skips notifications, and answers the chain id and version of the network", async () => {
    const r = await rpc([call("eth_chainId", [], 1), { jsonrpc: "2.0", method: "eth_blockNumber" }, call("net_version", [], "b")])
    expect(r.status).toBe(200)
    expect(r.body).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0xaa36a7" },
      { jsonrpc: "2.0", id: "b", result: "11155111" },
    ])
    expect((await rpc(call("eth_chainId"), "/_chain/polygon/amoy")).body.result).toBe("0x13882")
    expect((await rpc(call("eth_chainId"), "/_chain/ethereum/mainnet")).body.result).toBe("0x1")
    expect((await rpc({ jsonrpc: "2.0", method: "eth_chainId" })).status).toBe(204)
  })

  it("answers -32700, -32600, -32601 and -32602 for bad input, 404 for a network that is not EVM, and writes nothing", async () => {
    const before = h.sim.models.position
    const error = async (body: unknown, raw?: string) =>
      (raw !== undefined ? await post("/_chain/ethereum/sepolia", raw) : await rpc(body)).body
    expect(await error(undefined, "{not json")).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } })
    expect((await error([])).error.code).toBe(-32600)
    expect((await error(42)).error.code).toBe(-32600)
    expect((await error({ jsonrpc: "1.0", id: 3, method: "eth_chainId" })).error.code).toBe(-32600)
    expect((await error([7])).map((a: any) => a.error.code)).toEqual([-32600])
    expect(await error(call("eth_sendRawTransaction", ["0x00"], 9))).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32601, message: "the method eth_sendRawTransaction does not exist or is not available" },
    })
    expect((await error(call("toString"))).error.code).toBe(-32601)
    const badParams = [
      call("eth_getBalance", ["0x123", "latest"]),
      call("eth_getBalance", ["0x742d35Cc6634C0532925a3b844Bc454e4438f44e", "0x10"]),
      call("eth_getBalance", ["0x742d35Cc6634C0532925a3b844Bc454e4438f44e", "soon"]),
      call("eth_getBlockByNumber", ["latest", "yes"]),
      call("eth_getTransactionByHash", ["0x12"]),
      call("eth_getLogs", [{ fromBlock: "0x1", toBlock: "0x0" }]),
      call("eth_getLogs", [{ topics: ["0x12"] }]),
      call("eth_call", [{ to: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", data: "0x7" }]),
      call("eth_feeHistory", ["0x0", "latest", []]),
      { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: { a: 1 } },
    ]
    for (const body of badParams) expect([JSON.stringify(body), (await error(body)).error.code]).toEqual([JSON.stringify(body), -32602])
    const reverted = await error(call("eth_call", [{ to: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", data: "0xdeadbeef" }]))
    expect(reverted.error).toEqual({ code: 3, message: "execution reverted" })
    for (const path of ["/_chain/ethereum/nowhere", "/_chain/bitcoin/mainnet", "/_chain/tron/nile"]) {
      const r = await rpc(call("eth_chainId"), path)
      expect([path, r.status, r.body.error.code]).toEqual([path, 404, -32601])
    }
    expect(h.sim.models.position).toBe(before)
  })

  it("answers null for a block, transaction or receipt the chain has not", async () => {
    const none = `0x${"ab".repeat(32)}`
    const r = await rpc([
      call("eth_getBlockByNumber", ["0x64", false], 1),
      call("eth_getBlockByHash", [none, false], 2),
      call("eth_getTransactionByHash", [none], 3),
      call("eth_getTransactionReceipt", [none], 4),
    ])
    expect(r.body.map((a: any) => a.result)).toEqual([null, null, null, null])
  })

  it("finds any block of a long chain by its hash, an empty one too, and no block above the tip or of another chain", async () => {
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 30_000 })
    const hashOf = async (tag: string, path?: string) =>
      (await rpc(call("eth_getBlockByNumber", [tag, false]), path)).body.result.hash as string
    const tip = (await rpc(call("eth_blockNumber"))).body.result as string
    for (const number of ["0x0", "0x5", "0x4e20", tip]) {
      const found = (await rpc(call("eth_getBlockByHash", [await hashOf(number), false]))).body.result
      expect([number, found.number]).toEqual([number, number])
    }
    const logs = await rpc(call("eth_getLogs", [{ blockHash: await hashOf("0x5") }]))
    expect(logs.body.result).toEqual([])
    const amoy = await hashOf("earliest", "/_chain/polygon/amoy")
    expect((await rpc(call("eth_getBlockByHash", [amoy, false]))).body.result).toBeNull()
    // A hash of this chain's form naming a height above the tip names no block yet.
    const above = `${(await hashOf("0x5")).slice(0, -12)}${(Number(tip) + 1).toString(16).padStart(12, "0")}`
    expect((await rpc(call("eth_getBlockByHash", [above, false]))).body.result).toBeNull()
  })

  it("is behind the server's Host check", async () => {
    const guarded = await listen({ fetch: guardHosts(h.app.fetch, { bound: "127.0.0.1", allowed: [] }) } as never)
    try {
      const ok = await request(`${guarded.url}/_chain/ethereum/sepolia`, { method: "POST", body: JSON.stringify(call("eth_chainId")) })
      expect([ok.statusCode, ((await ok.body.json()) as any).result]).toEqual([200, "0xaa36a7"])
      const rebound = await request(`${guarded.url}/_chain/ethereum/sepolia`, {
        method: "POST",
        headers: { host: "evil.example:80" },
        body: JSON.stringify(call("eth_chainId")),
      })
      expect(rebound.statusCode).toBe(403)
      await rebound.body.text()
    } finally {
      await guarded.close()
    }
  })
})
