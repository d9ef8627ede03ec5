// GET /_sim/balances/history: every change of the picked balances, with position, time, block height and cause.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetId } from "../support/catalogue.js"
import { startHarness, type Harness } from "../support/harness.js"
import { runScenario, scenarioFixture, type ScenarioIds } from "../support/scenario.js"

let h: Harness
let ids: ScenarioIds
beforeAll(async () => {
  h = await startHarness({ fixture: scenarioFixture })
  ids = await runScenario(h)
})
afterAll(async () => h?.close())

const history = async (query: Record<string, string>) => h.admin<any>("GET", `/_sim/balances/history?${new URLSearchParams(query)}`)

describe("balance history", () => {
  it("lists each change of an address's asset with its time, block height, amounts and causing event", async () => {
    const r = await history({ address: ids.ethAddress, assetId: assetId("ethereum", "sepolia", "ETH") })
    expect(r.status).toBe(200)
    const changes = r.body.changes as Array<any>
    expect(changes.map((c) => c.event.type)).toEqual([
      "DepositCredited",
      "TxRequestCreated",
      "TxRequestMined",
      "TxRequestCreated",
      "TxRequestRejected",
      "TxRequestCreated",
      "TxRequestMined",
    ])
    expect(changes[0]).toMatchObject({
      blockchain: "ethereum",
      network: "sepolia",
      address: ids.ethAddress,
      vaultId: ids.testVaultId,
      totalAmount: "1.5",
      availableAmount: "1.5",
      blockedAmount: "0",
      allocatedAmount: "0",
      totalChange: "1.5",
      blockHeight: 1,
      event: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: "DepositCredited", stream: `vault-${ids.testVaultId}` },
    })
    expect(changes[0].time).toBe(Math.floor(changes[0].timeMs / 1000))
    expect(changes[1]).toMatchObject({ totalChange: "0", blockHeight: null, totalAmount: "1.5" })
    expect(Number(changes[1].blockedChange)).toBeGreaterThan(0.2)
    expect(changes[2].blockHeight).toEqual(expect.any(Number))
    const positions = changes.map((c) => c.position)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    for (const c of changes)
      for (const k of ["totalAmount", "availableAmount", "blockedAmount", "allocatedAmount", "totalChange", "blockedChange"])
        expect(c[k]).toMatch(/^-?[0-9]+(\.[0-9]*[1-9])?$/)
  })

  it("every change agrees with #8 asked as of its position", async () => {
    const r = await history({ vaultId: ids.testVaultId })
    for (const c of r.body.changes as Array<any>) {
      if (c.blockchain === "bitcoin" && c.address !== ids.btcAddress) continue
      const a = await h.client.call<any>("GET", `/vaults/${ids.testVaultId}/${c.blockchain}/addresses/${c.address}/assets`, {
        headers: { "x-sim-as-of": `position:${c.position}` },
      })
      const entry = a.body.data.item.assets.find(
        (x: any) => x.assetData.totalAmount !== undefined && assetId(c.blockchain, c.network, x.symbol) === c.assetId,
      )
      expect(entry.assetData).toMatchObject({
        totalAmount: c.totalAmount,
        availableAmount: c.availableAmount,
        blockedAmount: c.blockedAmount,
        allocatedAmount: c.allocatedAmount,
      })
    }
  })

  it("filters combine: vault, vault account, address, asset", async () => {
    const all = (await history({ vaultId: ids.testVaultId })).body.changes as Array<any>
    const btc = (await history({ vaultId: ids.testVaultId, assetId: assetId("bitcoin", "testnet", "BTC") })).body.changes as Array<any>
    expect(btc.length).toBeGreaterThan(0)
    expect(btc.every((c) => c.assetId === assetId("bitcoin", "testnet", "BTC"))).toBe(true)
    expect(all.length).toBeGreaterThan(btc.length)
    const account = all.find((c) => c.address === ids.ethAddress).vaultAccountId as string
    const byAccount = (await history({ vaultAccountId: account })).body.changes as Array<any>
    expect(byAccount.every((c) => c.vaultAccountId === account)).toBe(true)
    expect((await history({ vaultId: ids.mainVaultId, address: ids.ethAddress })).body.changes).toEqual([])
  })

  it("pages without splitting a position, and honours asOf", async () => {
    const all = (await history({ vaultId: ids.testVaultId })).body.changes as Array<any>
    const seen: Array<any> = []
    let from = "0"
    for (;;) {
      const r = await history({ vaultId: ids.testVaultId, limit: "2", fromPosition: from })
      seen.push(...r.body.changes)
      if (r.body.nextPosition === undefined) break
      from = String(r.body.nextPosition)
    }
    expect(seen).toEqual(all)
    const cut = all[2].position as number
    const early = (await history({ vaultId: ids.testVaultId, asOf: `position:${cut}` })).body.changes as Array<any>
    expect(early).toEqual(all.filter((c) => c.position <= cut))
  })

  it("refuses a missing filter, unknown filters, unknown resources and bad paging", async () => {
    expect((await history({})).status).toBe(400)
    expect((await history({ assetId: assetId("bitcoin", "testnet", "BTC") })).status).toBe(400)
    expect((await history({ vault: ids.testVaultId })).status).toBe(400)
    expect((await history({ vaultId: "0".repeat(24) })).status).toBe(404)
    expect((await history({ vaultAccountId: "0".repeat(24) })).status).toBe(404)
    expect((await history({ address: "nope" })).status).toBe(404)
    expect((await history({ vaultId: ids.testVaultId, limit: "0" })).status).toBe(400)
    expect((await history({ vaultId: ids.testVaultId, asOf: "position:99999" })).body.error.code).toBe("invalid_sim_as_of")
    const unauthorised = await h.app.request("http://sim.test/_sim/balances/history?vaultId=x")
    expect(unauthorised.status).toBe(401)
  })
})
