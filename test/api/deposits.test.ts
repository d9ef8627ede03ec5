// Deposits end to end over HTTP: mempool, mining, confirmations, crediting, the retroactive rule, interval mining.
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"

let h: Harness
beforeEach(async () => {
  h = await startHarness()
})
afterEach(async () => h.close())

const account = async () => {
  const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
    item: { name: "a", color: "#000000", isHiddenInDashboard: false },
  })
  return r.body.data.item.vaultAccountId as string
}
const addAsset = async (acct: string, item: Record<string, unknown>) =>
  (await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item.address as string
const balanceOf = async (blockchain: string, address: string, symbol: string) => {
  const r = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/${blockchain}/addresses/${address}/assets`)
  return r.body.data.item.assets.find((a: { symbol: string }) => a.symbol === symbol)?.assetData.totalAmount as string | undefined
}
const eventsOfType = async (type: string) => (await Effect.runPromise(h.sim.store.readAll({}))).filter((e) => e.type === type)

describe("a bitcoin deposit", () => {
  it("is pending in the mempool, mined without credit, credited after the required confirmations", async () => {
    const acct = await account()
    const address = await addAsset(acct, { assetId: assetId("bitcoin", "testnet", "BTC"), label: "btc" })
    expect((await h.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "manual", confirmations: 3 })).status).toBe(200)
    const dep = await h.admin("POST", "/_sim/deposits", {
      blockchain: "bitcoin",
      network: "testnet",
      address,
      assetId: assetId("bitcoin", "testnet", "BTC"),
      amount: "0.5",
    })
    expect(dep.status).toBe(201)
    const txid = dep.body.transactionId as string
    expect(txid).toMatch(/^[0-9a-f]{64}$/)

    let list = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)
    expect(list.body.data.items).toEqual([
      expect.objectContaining({
        transactionId: txid,
        direction: "incoming",
        status: "pending",
        minedInBlockHeight: "",
        hasTokenTransfer: "false",
        isInternal: "false",
      }),
    ])
    expect((await h.admin("POST", "/_sim/chains/bitcoin/testnet/mine", { blocks: 1 })).body).toEqual({ height: 1 })
    expect(await balanceOf("bitcoin", address, "BTC")).toBe("0")
    list = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)
    expect(list.body.data.items[0]).toMatchObject({ minedInBlockHeight: "1", status: "pending" })

    expect((await h.admin("POST", "/_sim/chains/bitcoin/testnet/mine", { blocks: 2 })).body).toEqual({ height: 3 })
    expect(await balanceOf("bitcoin", address, "BTC")).toBe("0.5")
    const detail = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/bitcoin/transactions/${txid}`)
    expect(detail.status).toBe(200)
    expect(detail.body.data.item).toMatchObject({
      direction: "incoming",
      network: "testnet",
      minedInBlockHeight: "1",
      status: "confirmed",
      timestamp: expect.any(Number),
      transactionFee: { amount: expect.stringMatching(/^0\.0000/), unitSymbol: "BTC" },
    })
    expect(detail.body.data.item.recipients).toEqual([
      { address, addressType: "deposit", label: "btc", amount: "0.5", isVaultAddress: "true", unitSymbol: "BTC" },
    ])
    expect(detail.body.data.item.senders[0]).toMatchObject({ isVaultAddress: "false", amount: "0.5", unitSymbol: "BTC" })
    const credited = await eventsOfType("DepositCredited")
    expect(credited).toHaveLength(1)
    expect(credited[0]!.data).toMatchObject({ transactionId: txid, amount: "50000000", vout: 0, confirmations: 3 })
    const notes = await eventsOfType("NotificationRaised")
    expect(notes.map((n) => (n.data as { kind: string }).kind)).toEqual(["INCOMING_CONFIRMED_COIN_TX"])
    const vault = await h.client.call<any>("GET", "/vaults/test")
    expect(vault.body.data.items.find((v: { id: string }) => v.id === h.testVaultId).depositAddressesCount).toBe(1)
  })
  it("an unknown transaction is 404", async () => {
    const r = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/bitcoin/transactions/${"0".repeat(64)}`)
    expect(r.status).toBe(404)
    expect(r.body.error.code).toBe("resource_not_found")
  })
})

describe("a token deposit to an address without the token", () => {
  it("is held with no event, credited exactly once when the token is added", async () => {
    const acct = await account()
    const address = await addAsset(acct, { assetId: assetId("ethereum", "sepolia", "ETH"), label: "eth" })
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
    const usdc = assetId("ethereum", "sepolia", "USDC")
    const dep = await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      assetId: usdc,
      amount: "25.5",
    })
    expect(dep.status).toBe(201)
    expect(await eventsOfType("DepositCredited")).toHaveLength(0)
    expect(await eventsOfType("NotificationRaised")).toHaveLength(0)
    expect((await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)).body.data.items).toEqual([])

    await addAsset(acct, { assetId: usdc, address })
    expect(await balanceOf("ethereum", address, "USDC")).toBe("25.5")
    await addAsset(acct, { assetId: usdc, address })
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 5 })
    expect(await eventsOfType("DepositCredited")).toHaveLength(1)
    expect((await eventsOfType("NotificationRaised")).map((n) => (n.data as { kind: string }).kind)).toEqual([
      "INCOMING_CONFIRMED_TOKEN_TX",
    ])
    expect(await balanceOf("ethereum", address, "USDC")).toBe("25.5")
    const detail = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/transactions/${dep.body.transactionId}`)
    expect(detail.body.data.item.tokensTransfers).toEqual([
      {
        amount: "25.5",
        contract: expect.stringMatching(/^0x/),
        fromAddress: expect.any(String),
        toAddress: address,
        symbol: "USDC",
        tokenName: expect.any(String),
        type: "ERC-20",
        decimals: 6,
      },
    ])
    expect(detail.body.data.item.recipients[0]).toMatchObject({ amount: "0", unitSymbol: "ETH" })
  })
})

describe("interval mining on the simulated clock", () => {
  it("mines exactly the blocks the interval makes due when the clock is advanced", async () => {
    const acct = await account()
    const address = await addAsset(acct, { assetId: assetId("ethereum", "sepolia", "ETH"), label: "eth" })
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "interval", intervalSeconds: 12, confirmations: 3 })
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      amount: "1",
    })
    const chain = async () =>
      (await h.admin<any>("GET", "/_sim/chains")).body.chains.find(
        (c: { blockchain: string; network: string }) => c.blockchain === "ethereum" && c.network === "sepolia",
      )
    await h.admin("POST", "/_sim/clock/advance", { seconds: 11 })
    expect((await chain()).height).toBe(0)
    await h.admin("POST", "/_sim/clock/advance", { seconds: 1 })
    expect((await chain()).height).toBe(1)
    const list = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)
    expect(list.body.data.items[0].minedInBlockHeight).toBe("1")
    await h.admin("POST", "/_sim/clock/advance", { seconds: 23 })
    expect((await chain()).height).toBe(2)
    expect(await balanceOf("ethereum", address, "ETH")).toBe("0")
    await h.admin("POST", "/_sim/clock/advance", { seconds: 1 })
    expect((await chain()).height).toBe(3)
    expect(await balanceOf("ethereum", address, "ETH")).toBe("1")
    await h.admin("POST", "/_sim/clock/advance", { seconds: 120 })
    expect((await chain()).height).toBe(13)
  })
})

describe("deposit refusals", () => {
  it("refuses unknown chains, foreign assets, bad amounts and addresses not in a vault", async () => {
    const acct = await account()
    const address = await addAsset(acct, { assetId: assetId("ethereum", "sepolia", "ETH"), label: "eth" })
    const base = { blockchain: "ethereum", network: "sepolia", address, assetId: assetId("ethereum", "sepolia", "ETH"), amount: "1" }
    expect((await h.admin("POST", "/_sim/deposits", { ...base, network: "moon" })).status).toBe(404)
    expect((await h.admin("POST", "/_sim/deposits", { ...base, assetId: assetId("bitcoin", "testnet", "BTC") })).status).toBe(404)
    for (const amount of ["-1", "1e5", "0.0000000000000000001", "0", "abc"])
      expect((await h.admin("POST", "/_sim/deposits", { ...base, amount })).status).toBe(400)
    expect((await h.admin("POST", "/_sim/deposits", { ...base, address: "0x0000000000000000000000000000000000000001" })).status).toBe(404)
    expect((await h.admin("POST", "/_sim/deposits", { ...base, address: "not-an-address" })).status).toBe(400)
  })
})
