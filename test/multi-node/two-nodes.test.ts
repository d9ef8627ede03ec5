// Two `custody-sim serve --store esdb` processes on one EventStoreDB (the gRPC double): one state, bounded lag,
// distinct ids, exactly-once crediting and no overdraft under concurrent requests through both nodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { maxFeeOf } from "../../src/commands/transaction-requests.js"
import { findAsset, findNetwork } from "../../src/domain/chains/index.js"
import { formatAmount } from "../../src/domain/shared/money.js"
import type { Credentials } from "../../src/client/index.js"
import { startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { assetId } from "../support/catalogue.js"
import { eventually, startSimProcess, type Answer, type SimProcess } from "../support/sim-process.js"

/** The bound this suite holds the followers to: a write through one node is readable through the other within it. */
const LAG_BOUND_MS = 1_000
const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

let double: EsdbDouble
let a: SimProcess
let b: SimProcess
let creds: Credentials
let testVault: string
const nodes = () => [a, b] as const
const other = (n: SimProcess) => (n === a ? b : a)

const decoder = new TextDecoder()
/** The simulator's events in the double's log (system events and `$`-streams left out). */
const logEvents = () =>
  double.state.log
    .filter((e) => !e.type.startsWith("$") && !e.stream.startsWith("$"))
    .map((e) => ({
      id: e.id,
      stream: e.stream,
      type: e.type,
      data: JSON.parse(decoder.decode(e.data)) as any,
      metadata: JSON.parse(decoder.decode(e.metadata)) as any,
    }))

const ok = (r: Answer, status = 201) => {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`)
  return r
}
const position = (r: Answer) => r.headers.get("x-sim-position")!
const newAccount = async (n: SimProcess, vaultId = testVault, headers: Record<string, string> = {}) =>
  ok(
    await n.call(
      creds,
      "POST",
      `/vaults/${vaultId}/vault-account`,
      { name: "acct", color: "#000000", isHiddenInDashboard: false },
      headers,
    ),
  )
const addAsset = async (
  n: SimProcess,
  vaultId: string,
  acct: string,
  blockchain: string,
  network: string,
  symbol: string,
  headers: Record<string, string> = {},
) =>
  ok(
    await n.call(
      creds,
      "PUT",
      `/vaults/${vaultId}/vault-accounts/${acct}/add-asset`,
      { assetId: assetId(blockchain, network, symbol), label: symbol },
      headers,
    ),
    200,
  )
const balance = async (n: SimProcess, vaultId: string, blockchain: string, address: string, symbol: string) => {
  const r = await n.call(creds, "GET", `/vaults/${vaultId}/${blockchain}/addresses/${address}/assets`)
  return (r.body.data?.item.assets as Array<{ symbol: string; assetData: Record<string, string> }> | undefined)?.find(
    (x) => x.symbol === symbol,
  )?.assetData
}
const lagStats = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((p, q) => p - q)
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!
  return { n: s.length, median: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1), max: +s[s.length - 1]!.toFixed(1) }
}

/** The default workspace's key is at the newest version; these checks read and write with 2024-05-09's paths. */
const at2024 = (n: SimProcess): SimProcess => ({
  ...n,
  call: (c, method, path, item, headers = {}) => n.call(c, method, path, item, { "x-api-version": "2024-05-09", ...headers }),
})

beforeAll(async () => {
  double = await startEsdbDouble()
  const args = ["--store", "esdb", "--esdb", `${double.connectionString}&defaultDeadline=3000`, "--seed", "two-nodes"]
  // Both start at once on the empty store: only one default workspace may come of it.
  const started = await Promise.allSettled([startSimProcess(args), startSimProcess(args)])
  const up = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []))
  if (up.length < 2) {
    await Promise.all(up.map((n) => n.stop()))
    throw started.find((r) => r.status === "rejected")!.reason
  }
  ;[a, b] = up.map(at2024) as [SimProcess, SimProcess]
  creds = (a.credentials ?? b.credentials)!
  testVault = (await a.call(creds, "GET", "/vaults/test")).body.data.items[0].id
}, 60_000)

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await double?.stop()
})

describe("two nodes on one store", () => {
  it("start together into one default workspace, with distinct node ids, and serve the same state", async () => {
    const events = logEvents()
    expect(events.filter((e) => e.type === "VaultCreated")).toHaveLength(2)
    expect(events.filter((e) => e.type === "ApiKeyCreated")).toHaveLength(1)
    expect(a.adminToken).toBe(b.adminToken)
    expect(new Set([a.nodeId, b.nodeId])).toEqual(new Set(["", "~1"]))
    const [va, vb] = await Promise.all(nodes().map((n) => n.call(creds, "GET", "/vaults")))
    expect(va!.status).toBe(200)
    expect(vb!.body.data).toEqual(va!.body.data)
    const health = await Promise.all(nodes().map(async (n) => (await n.admin("GET", "/_sim/health")).body))
    expect(health[0]).toEqual(health[1])
    // The log pages by opaque positions: each page says where the next one starts.
    const paged: Array<string> = []
    for (let from = "0"; ; ) {
      const page = ok(await b.admin("GET", `/_sim/events?fromPosition=${from}&limit=2`), 200).body
      paged.push(...page.events.map((e: { id: string }) => e.id))
      if (page.nextPosition === undefined) break
      from = String(page.nextPosition)
    }
    expect(paged).toEqual(logEvents().map((e) => e.id))
  })

  it(`show a write through one node through the other within ${LAG_BOUND_MS} ms, and at once with its x-sim-position`, async () => {
    const lags: Array<number> = []
    for (let i = 0; i < 20; i++) {
      const writer = i % 2 === 0 ? a : b
      const created = ok(await writer.admin("POST", "/_sim/vaults", { name: `lag ${i}`, type: "test" }))
      const id = created.body.id as string
      const token = position(created)
      expect(token).toMatch(/^[0-9]+$/)
      const reader = other(writer)
      const fresh = await reader.call(creds, "GET", "/vaults/test", undefined, { "x-sim-min-position": token })
      expect(fresh.body.data.items.map((v: { id: string }) => v.id)).toContain(id)
      expect(BigInt(position(fresh))).toBeGreaterThanOrEqual(BigInt(token))

      const next = ok(await writer.admin("POST", "/_sim/vaults", { name: `lag ${i}'`, type: "test" }))
      lags.push(
        await eventually(
          async () => (await reader.call(creds, "GET", "/vaults/test")).body.data.items.some((v: { id: string }) => v.id === next.body.id),
          LAG_BOUND_MS,
        ),
      )
    }
    const stats = lagStats(lags)
    console.log(`follower lag, write through one node to a read through the other (ms, polled every 5 ms): ${JSON.stringify(stats)}`)
    expect(stats.max).toBeLessThanOrEqual(LAG_BOUND_MS)
  })

  it("never collide on ids: 50 vault accounts created in pairs through both nodes at once are distinct and visible on both", async () => {
    const made: Array<{ id: string; by: SimProcess }> = []
    for (let round = 0; round < 25; round++) {
      const pair = await Promise.all(
        nodes().map(async (n) => ({ id: (await newAccount(n)).body.data.item.vaultAccountId as string, by: n })),
      )
      made.push(...pair)
    }
    expect(new Set(made.map((m) => m.id)).size).toBe(50)
    // Visible through the other node's read models: generating an address for an account looks it up there first.
    for (const { id, by } of made) {
      const r = await other(by).call(creds, "POST", `/vaults/${testVault}/ethereum/sepolia/addresses`, {
        label: "probe",
        vaultAccountId: id,
      })
      expect([r.status, r.body.error?.code]).toEqual([201, undefined])
    }
    const events = logEvents()
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
    const created = events.filter((e) => e.type === "VaultAccountCreated")
    expect(new Set(created.map((e) => e.data.vaultAccountId)).size).toBe(created.length)
    expect(new Set(created.map((e) => e.metadata.requestId)).size).toBe(created.length)
  }, 60_000)

  it("credit each deposit exactly once while both nodes mine, settle and tick the same chains", async () => {
    const acct = (await newAccount(a)).body.data.item.vaultAccountId as string
    const eth = await addAsset(a, testVault, acct, "ethereum", "sepolia", "ETH")
    const ethAddress = eth.body.data.item.address as string
    const btc = await addAsset(b, testVault, acct, "bitcoin", "testnet", "BTC", { "x-sim-min-position": position(eth) })
    const btcAddress = btc.body.data.item.address as string
    ok(await a.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 3 }), 200)
    // Interval blocks come due on the wall clock: both nodes' tickers race to record them.
    ok(await b.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "interval", intervalSeconds: 1, confirmations: 2 }), 200)

    const deposits = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const n = i % 2 === 0 ? a : b
        return i % 3 === 0
          ? n.admin("POST", "/_sim/deposits", {
              blockchain: "bitcoin",
              network: "testnet",
              address: btcAddress,
              assetId: assetId("bitcoin", "testnet", "BTC"),
              amount: "0.001",
            })
          : n.admin("POST", "/_sim/deposits", {
              blockchain: "ethereum",
              network: "sepolia",
              address: ethAddress,
              assetId: assetId("ethereum", "sepolia", "ETH"),
              amount: "0.01",
            })
      }),
    )
    for (const d of deposits) ok(d)
    const mined = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })),
    )
    for (const m of mined) ok(m, 200)

    for (const n of nodes()) {
      await eventually(async () => (await balance(n, testVault, "ethereum", ethAddress, "ETH"))?.totalAmount === "0.2", 5_000)
      await eventually(async () => (await balance(n, testVault, "bitcoin", btcAddress, "BTC"))?.totalAmount === "0.01", 15_000)
    }
    const events = logEvents()
    const credited = events.filter((e) => e.type === "DepositCredited" && (e.data.address === ethAddress || e.data.address === btcAddress))
    expect(credited).toHaveLength(30)
    expect(new Set(credited.map((e) => `${e.data.transactionId}:${e.data.vout}`)).size).toBe(30)
    const noted = events.filter(
      (e) => e.type === "NotificationRaised" && (e.data.payload?.address === ethAddress || e.data.payload?.address === btcAddress),
    )
    expect(noted).toHaveLength(30)
    for (const chain of ["chain-ethereum.sepolia", "chain-bitcoin.testnet"]) {
      const heights = events
        .filter((e) => e.stream === chain && e.type === "ChainBlocksMined")
        .flatMap((e) => [e.data.fromHeight as number, e.data.toHeight as number])
      for (let i = 1; i < heights.length; i++) expect(heights[i]!).toBeGreaterThanOrEqual(heights[i - 1]!)
      const blocks = events.filter((e) => e.stream === chain && e.type === "ChainBlocksMined").map((e) => e.data.fromHeight as number)
      expect(new Set(blocks).size).toBe(blocks.length)
    }
  }, 60_000)

  it("never overdraw: 50 withdrawals split across both nodes against funds for 10 accept at most 10", async () => {
    const vault = ok(await a.admin("POST", "/_sim/vaults", { name: "payouts", type: "test" })).body.id as string
    ok(await a.admin("PUT", `/_sim/vaults/${vault}/approval-policy`, { mode: "manual", levels: 1 }), 200)
    ok(await a.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 }), 200)
    const acct = (await newAccount(a, vault)).body.data.item.vaultAccountId as string
    const added = await addAsset(a, vault, acct, "ethereum", "sepolia", "ETH")
    const address = added.body.data.item.address as string
    const network = findNetwork("ethereum", "sepolia")!
    const ethAsset = findAsset(assetId("ethereum", "sepolia", "ETH"))!
    const each = 10n ** 16n + maxFeeOf(network, ethAsset, "standard", null) // 0.01 ETH plus the reserved maximum fee
    const funds = formatAmount(10n * each, ethAsset.decimals)
    ok(
      await a.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ethAsset.id, amount: funds }),
    )
    for (const n of nodes())
      await eventually(async () => (await balance(n, vault, "ethereum", address, "ETH"))?.availableAmount === funds, 5_000)

    const url = `/vaults/${vault}/ethereum/sepolia/addresses/${address}/transaction-requests`
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? a : b).call(creds, "POST", url, { amount: "0.01", feePriority: "standard", recipientAddress: EXTERNAL_ETH }),
      ),
    )
    const accepted = answers.filter((r) => r.status === 201)
    const refused = answers.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.error?.code}`)
    console.log(
      `withdrawals: ${accepted.length} accepted, refusals ${JSON.stringify(Object.fromEntries([...new Set(refused)].map((k) => [k, refused.filter((x) => x === k).length])))}`,
    )
    expect(accepted.length).toBeLessThanOrEqual(10)
    expect(accepted.length).toBeGreaterThan(0)
    for (const r of refused) expect(["400 insufficient_balance", "409 concurrent_modification"]).toContain(r)
    if (!refused.includes("409 concurrent_modification")) expect(accepted.length).toBe(10)
    expect(logEvents().filter((e) => e.type === "TxRequestCreated" && e.data.vaultId === vault)).toHaveLength(accepted.length)

    const blocked = formatAmount(BigInt(accepted.length) * each, ethAsset.decimals)
    const available = formatAmount((10n - BigInt(accepted.length)) * each, ethAsset.decimals)
    for (const n of nodes())
      await eventually(async () => {
        const eth = await balance(n, vault, "ethereum", address, "ETH")
        return (
          eth?.totalAmount === funds && eth.blockedAmount === blocked && eth.availableAmount === available && eth.allocatedAmount === "0"
        )
      }, LAG_BOUND_MS)
  }, 60_000)
})
