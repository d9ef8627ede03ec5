// The control-plane reads and writes the dashboard uses: answers as of a position equal the REST answers then,
// the writes answer as the REST operations do, and bad input is refused with the usual codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findTestAsset } from "../../src/testing.js"
import { startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { inProcessFixtureAt } from "../support/harness.js"

const ETH = findTestAsset("ETH", "ethereum")
let p: InProcess
let vault = ""
let account = ""
let address = ""
let beforeDeposit = 0

beforeAll(async () => {
  p = await startInProcess({ seed: "dashboard-views", webhooks: false, fixture: inProcessFixtureAt("2024-05-09") })
  vault = p.testVaultId
  await p.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const created = await p.admin("POST", `/_sim/vaults/${vault}/vault-accounts`, {
    name: "alice",
    color: "#112233",
    isHiddenInDashboard: false,
  })
  expect(created.status).toBe(201)
  account = created.body.vaultAccountId
  const added = await p.admin("PUT", `/_sim/vaults/${vault}/vault-accounts/${account}/add-asset`, {
    assetId: ETH.assetId,
    label: "alice eth",
  })
  expect(added.status).toBe(200)
  expect(added.body).toMatchObject({
    label: "alice eth",
    assetId: ETH.assetId,
    blockchain: "ethereum",
    network: "sepolia",
    vaultAccountId: account,
  })
  address = added.body.address
  beforeDeposit = Number(p.sim.models.position)
  expect(
    (await p.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH.assetId, amount: "2" }))
      .status,
  ).toBe(201)
})
afterAll(async () => p.close())

describe("dashboard reads", () => {
  it("addresses with their four amounts, now and as of a position, equal REST #8 with x-sim-as-of", async () => {
    for (const asOf of [undefined, beforeDeposit]) {
      const q = asOf === undefined ? "" : `&asOf=position:${asOf}`
      const page = await p.admin("GET", `/_sim/vaults/${vault}/addresses?vaultAccountId=${account}${q}`)
      expect(page.status).toBe(200)
      const rest = await p.client().call<any>("GET", `/vaults/${vault}/ethereum/addresses/${address}/assets`, {
        headers: asOf === undefined ? {} : { "x-sim-as-of": `position:${asOf}` },
      })
      const { totalAmount, availableAmount, blockedAmount, allocatedAmount } = rest.body.data.item.assets[0].assetData
      expect(page.body.items).toEqual([
        expect.objectContaining({
          address,
          label: "alice eth",
          assets: [{ assetId: ETH.assetId, symbol: "ETH", totalAmount, availableAmount, blockedAmount, allocatedAmount }],
        }),
      ])
    }
    expect((await p.admin("GET", `/_sim/vaults/${vault}/addresses`)).body.items[0].assets[0].totalAmount).toBe("2")
  })

  it("accounts, transactions and the overview follow the position", async () => {
    // The vault's default account (its id is the vault's) first, from the vault's creation on.
    const defaultAccount = { vaultAccountId: vault, vaultId: vault, name: "Default", isDefault: true, index: 0 }
    expect((await p.admin("GET", `/_sim/vaults/${vault}/vault-accounts?asOf=position:1`)).body.items).toEqual([
      expect.objectContaining(defaultAccount),
    ])
    expect((await p.admin("GET", `/_sim/vaults/${vault}/vault-accounts`)).body).toMatchObject({
      hasMore: false,
      items: [defaultAccount, { vaultAccountId: account, vaultId: vault, name: "alice", isDefault: false, index: 1 }],
    })
    const page = await p.admin("GET", `/_sim/vaults/${vault}/vault-accounts?limit=1&startingAfter=${vault}`)
    expect(page.body).toMatchObject({ hasMore: false, items: [{ vaultAccountId: account }] })
    const txs = await p.admin("GET", `/_sim/vaults/${vault}/transactions`)
    const rest = await p.client().call<any>("GET", `/vaults/${vault}/transactions`)
    expect(txs.body.items).toEqual(rest.body.data.items)
    expect((await p.admin("GET", `/_sim/vaults/${vault}/transactions?asOf=position:${beforeDeposit}`)).body.items).toEqual([])
    const overview = await p.admin("GET", `/_sim/overview?asOf=position:${beforeDeposit}`)
    expect(overview.body).toMatchObject({ position: beforeDeposit, vaults: [{ id: vault, accounts: 2 }, { accounts: 1 }] })
  })

  it("API keys without secrets, revoked only from the revocation on", async () => {
    const key = await p.admin("POST", "/_sim/api-keys", { name: "temp" })
    const revokedAt = Number(p.sim.models.position) + 1
    expect((await p.admin("DELETE", `/_sim/api-keys/${key.body.key}`)).status).toBe(200)
    const now = (await p.admin("GET", "/_sim/api-keys")).body.items.find((k: { key: string }) => k.key === key.body.key)
    expect(now).toMatchObject({ name: "temp", revoked: true })
    expect(now).not.toHaveProperty("secret")
    expect(now).not.toHaveProperty("passphraseHash")
    const before = (await p.admin("GET", `/_sim/api-keys?asOf=position:${revokedAt - 1}`)).body.items.find(
      (k: { key: string }) => k.key === key.body.key,
    )
    expect(before.revoked).toBe(false)
  })

  it("the log filtered by stream category and type, up to the position", async () => {
    const r = await p.admin("GET", "/_sim/log?stream=chain&type=ChainTxSubmitted,ChainBlocksMined")
    expect(r.status).toBe(200)
    expect(r.body.events.map((e: { type: string }) => e.type)).toEqual(["ChainTxSubmitted", "ChainBlocksMined"])
    expect(r.body.events.every((e: { stream: string }) => e.stream.startsWith("chain-"))).toBe(true)
    expect((await p.admin("GET", `/_sim/log?type=ChainBlocksMined&asOf=position:${beforeDeposit}`)).body.events).toEqual([])
    const page = await p.admin("GET", "/_sim/log?limit=2")
    expect(page.body.events.map((e: { position: number }) => e.position)).toEqual([1, 2])
    expect(page.body.nextPosition).toBe(3)
  })

  it("a chain with its height and mempool, and the timeline with its block marks", async () => {
    const chain = await p.admin("GET", "/_sim/chains/ethereum/sepolia")
    expect(chain.body).toMatchObject({
      blockchain: "ethereum",
      network: "sepolia",
      height: 1,
      mode: "auto",
      confirmationsRequired: 1,
      mempool: { items: [] },
    })
    const past = await p.admin("GET", `/_sim/chains/ethereum/sepolia?asOf=position:${beforeDeposit + 1}`)
    expect(past.body).toMatchObject({ height: 0, mempool: { items: [{ kind: "deposit", to: address, amount: "2000000000000000000" }] } })
    const t = await p.admin("GET", "/_sim/timeline")
    expect(t.body).toMatchObject({
      first: 1,
      head: Number(p.sim.models.position),
      frozen: true,
      blockCount: 1,
      blocks: [{ chain: "ethereum/sepolia", height: 1 }],
    })
    // The block the timeline's label names: the last change of height at or before the position, that chain's height there.
    const mark = t.body.blocks[0].position as number
    for (const [asOf, block] of [
      [`position:${mark - 1}`, null],
      [`position:${mark}`, { chain: "ethereum/sepolia", height: 1, position: mark }],
      [undefined, { chain: "ethereum/sepolia", height: 1, position: mark }],
    ] as const) {
      const r = await p.admin("GET", `/_sim/timeline/block${asOf === undefined ? "" : `?asOf=${asOf}`}`)
      expect([asOf, r.status, r.body]).toEqual([asOf, 200, { block }])
    }
  })

  it("the vault's own addresses as its default account's, and a new one derived there", async () => {
    const derived = await p.admin("POST", `/_sim/vaults/${vault}/ethereum/sepolia/addresses`, { label: "own" })
    expect(derived.status).toBe(201)
    expect(derived.body).toMatchObject({ label: "own" })
    const own = await p.admin("GET", `/_sim/vaults/${vault}/addresses?vaultAccountId=${vault}`)
    expect(own.body.items.map((a: { address: string; vaultAccountId: string | null }) => [a.address, a.vaultAccountId])).toEqual([
      [derived.body.address, null],
    ])
    expect((await p.admin("GET", `/_sim/vaults/${vault}/addresses?vaultAccountId=`)).body.items).toEqual(own.body.items)
  })
})

describe("refusals", () => {
  it("a position beyond the log, a bad limit or cursor, an unknown vault or chain", async () => {
    const cases: Array<[string, number, string]> = [
      ["/_sim/overview?asOf=position:99999", 400, "invalid_sim_as_of"],
      ["/_sim/timeline/block?asOf=position:99999", 400, "invalid_sim_as_of"],
      ["/_sim/timeline/block?asOf=soon", 400, "invalid_sim_as_of"],
      [`/_sim/vaults/${vault}/addresses?asOf=yesterday`, 400, "invalid_sim_as_of"],
      [`/_sim/vaults/${vault}/vault-accounts?limit=0`, 400, "invalid_pagination"],
      [`/_sim/vaults/${vault}/vault-accounts?limit=501`, 400, "limit_greater_than_allowed"],
      [`/_sim/vaults/${vault}/vault-accounts?startingAfter=nope`, 400, "invalid_pagination"],
      ["/_sim/vaults/000000000000000000000000/addresses", 404, "resource_not_found"],
      ["/_sim/chains/ethereum/nowhere", 404, "resource_not_found"],
      ["/_sim/log?limit=501", 400, "invalid_data"],
      ["/_sim/log?fromPosition=-1", 400, "invalid_data"],
    ]
    for (const [path, status, code] of cases) {
      const r = await p.admin("GET", path)
      expect([path, r.status, r.body.error?.code]).toEqual([path, status, code])
    }
  })

  it("writes answer as the REST operations do, and change nothing when refused", async () => {
    const head = p.sim.models.position
    const cases: Array<[string, string, unknown, number, string]> = [
      [
        "POST",
        `/_sim/vaults/${vault}/vault-accounts`,
        { color: "#112233", isHiddenInDashboard: false },
        409,
        "missing_required_attributes",
      ],
      ["POST", `/_sim/vaults/${vault}/vault-accounts`, { name: "x", color: "red", isHiddenInDashboard: false }, 400, "invalid_data"],
      [
        "POST",
        "/_sim/vaults/000000000000000000000000/vault-accounts",
        { name: "x", color: "#112233", isHiddenInDashboard: false },
        404,
        "resource_not_found",
      ],
      ["PUT", `/_sim/vaults/${vault}/vault-accounts/${account}/add-asset`, { assetId: ETH.assetId }, 409, "missing_required_attributes"],
      ["PUT", `/_sim/vaults/${vault}/vault-accounts/${account}/add-asset`, { assetId: "nope", label: "x" }, 404, "resource_not_found"],
      ["POST", `/_sim/vaults/${vault}/ethereum/sepolia/addresses`, {}, 409, "missing_required_attributes"],
      ["POST", `/_sim/vaults/${vault}/ethereum/nowhere/addresses`, { label: "x" }, 400, "invalid_data"],
      ["POST", `/_sim/vaults/${vault}/ethereum/mainnet/addresses`, { label: "x" }, 400, "network_not_allowed_for_vault"],
      ["POST", "/_sim/vaults/000000000000000000000000/ethereum/sepolia/addresses", { label: "x" }, 404, "resource_not_found"],
    ]
    for (const [method, path, body, status, code] of cases) {
      const r = await p.admin(method as "POST", path, body)
      expect([path, r.status, r.body.error?.code]).toEqual([path, status, code])
    }
    expect(p.sim.models.position).toBe(head)
  })
})
