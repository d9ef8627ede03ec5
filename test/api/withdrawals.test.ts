// Transaction requests (#15–#21) over HTTP: reservations, approvals, the status machine, fees, UTXO change, faults.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"

let h: Harness
beforeEach(async () => {
  h = await startHarness()
})
afterEach(async () => h.close())

const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

const fund = async (
  blockchain: string,
  network: string,
  symbol: string,
  amount: string,
  options: { label?: string; acct?: string; address?: string } = {},
) => {
  const acct =
    options.acct ??
    (
      await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
        item: { name: "a", color: "#000000", isHiddenInDashboard: false },
      })
    ).body.data.item.vaultAccountId
  const item =
    options.address !== undefined
      ? { assetId: assetId(blockchain, network, symbol), address: options.address }
      : { assetId: assetId(blockchain, network, symbol), label: options.label ?? "w" }
  const address = (await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item
    .address as string
  await h.admin("PUT", `/_sim/chains/${blockchain}/${network}/mining`, { mode: "auto", confirmations: 1 })
  const dep = await h.admin("POST", "/_sim/deposits", {
    blockchain,
    network,
    address,
    assetId: assetId(blockchain, network, symbol),
    amount,
  })
  expect(dep.status).toBe(201)
  return { acct, address }
}
const assets = async (blockchain: string, address: string) =>
  Object.fromEntries(
    (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/${blockchain}/addresses/${address}/assets`)).body.data.item.assets.map(
      (a: any) => [a.symbol, a.assetData],
    ),
  )
const request = async (id: string) => (await h.client.call<any>("GET", `/transactionRequests/${id}`)).body.data.item

describe("#18 EVM coin request", () => {
  it("answers 201 created, then with the auto policy goes broadcasted → mined → success and debits amount plus fee", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.25", feePriority: "standard", recipientAddress: EXTERNAL_ETH, note: "payout 1" },
    })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toEqual({
      feePriority: "standard",
      recipients: [{ address: EXTERNAL_ETH, amount: "0.25" }],
      senders: { address },
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      note: "payout 1",
    })
    const detail = await request(r.body.data.item.transactionRequestId)
    expect(detail).toMatchObject({
      transactionRequestStatus: "success",
      transactionType: "coin",
      unit: "ETH",
      totalTransactionAmount: "0.25",
      additionalDetails: "payout 1",
    })
    const eth = (await assets("ethereum", address)).ETH
    const fee = 1 - 0.25 - Number(eth.totalAmount)
    expect(fee).toBeGreaterThan(0)
    expect(eth).toMatchObject({ blockedAmount: "0", allocatedAmount: "0" })
    expect(eth.availableAmount).toBe(eth.totalAmount)
    const list = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)
    expect(list.body.data.items[0]).toMatchObject({ direction: "outgoing", status: "completed", transactionId: detail.transactionId })
  })
  it("refuses bad amounts, a foreign sender, the wrong chain and insufficient funds, writing nothing", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    const url = `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`
    const before = h.sim.models.position
    for (const amount of ["-1", "1e5", "0.0000000000000000001", "0", ""]) {
      const r = await h.client.call<any>("POST", url, { item: { amount, feePriority: "fast", recipientAddress: EXTERNAL_ETH } })
      expect([r.status, r.body.error.code]).toEqual([400, "invalid_data"])
    }
    const broke = await h.client.call<any>("POST", url, { item: { amount: "1", feePriority: "fast", recipientAddress: EXTERNAL_ETH } })
    expect([broke.status, broke.body.error.code]).toEqual([400, "insufficient_balance"])
    const foreign = await h.client.call<any>(
      "POST",
      `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${EXTERNAL_ETH}/transaction-requests`,
      {
        item: { amount: "0.1", feePriority: "fast", recipientAddress: address },
      },
    )
    expect(foreign.status).toBe(404)
    const tron = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/transaction-requests`, {
      item: { amount: "0.1", feePriority: "fast", recipientAddress: EXTERNAL_ETH },
    })
    expect([tron.status, tron.body.error.code]).toEqual([400, "invalid_data"])
    const badTo = await h.client.call<any>("POST", url, { item: { amount: "0.1", feePriority: "fast", recipientAddress: "0x123" } })
    expect(badTo.status).toBe(400)
    expect(h.sim.models.position).toBe(before)
  })
})

describe("approvals", () => {
  it("a two-level policy goes await-approval → await-approval-l2 → broadcasted, holding the funds as blockedAmount", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    await h.admin("PUT", `/_sim/vaults/${h.testVaultId}/approval-policy`, { mode: "manual", levels: 2 })
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual" })
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.5", feePriority: "slow", recipientAddress: EXTERNAL_ETH },
    })
    const id = r.body.data.item.transactionRequestId
    expect((await request(id)).transactionRequestStatus).toBe("await-approval")
    const held = (await assets("ethereum", address)).ETH
    expect(Number(held.blockedAmount)).toBeGreaterThan(0.5)
    expect(Number(held.availableAmount) + Number(held.blockedAmount)).toBeCloseTo(1, 12)
    expect((await h.admin("POST", `/_sim/transaction-requests/${id}/approve`, {})).body.transactionRequestStatus).toBe("await-approval-l2")
    expect((await h.admin("POST", `/_sim/transaction-requests/${id}/approve`, {})).body.transactionRequestStatus).toBe("broadcasted")
    expect((await h.admin("POST", `/_sim/transaction-requests/${id}/approve`, {})).status).toBe(409)
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
    expect((await request(id)).transactionRequestStatus).toBe("success")
    expect((await assets("ethereum", address)).ETH.blockedAmount).toBe("0")
  })
  it("a rejected request releases its reservation", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    await h.admin("PUT", `/_sim/vaults/${h.testVaultId}/approval-policy`, { mode: "manual", levels: 1 })
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.5", feePriority: "slow", recipientAddress: EXTERNAL_ETH },
    })
    const id = r.body.data.item.transactionRequestId
    expect((await h.admin("POST", `/_sim/transaction-requests/${id}/reject`, { reason: "not today" })).body.transactionRequestStatus).toBe(
      "rejected",
    )
    expect((await assets("ethereum", address)).ETH).toMatchObject({ totalAmount: "1", availableAmount: "1", blockedAmount: "0" })
  })
})

describe("#19 token and #16 single transfer", () => {
  it("a token request debits the token and pays the fee in the coin", async () => {
    const { acct, address } = await fund("ethereum", "sepolia", "ETH", "1")
    await fund("ethereum", "sepolia", "USDC", "100", { acct, address })
    const contract = (
      await h.client.call<any>("GET", "/supported-assets", { query: { assetUnit: "USDC", blockchain: "ethereum", networkType: "test" } })
    ).body.data.items[0].tokenData.contractAddress
    const r = await h.client.call<any>(
      "POST",
      `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/token-transaction-requests`,
      {
        item: { amount: "40", feePriority: "fast", recipientAddress: EXTERNAL_ETH, tokenIdentifier: contract },
      },
    )
    expect(r.status).toBe(201)
    expect(r.body.data.item.tokenTypeSpecificData).toEqual({ contractAddress: contract })
    const a = await assets("ethereum", address)
    expect(a.USDC.totalAmount).toBe("60")
    expect(Number(a.ETH.totalAmount)).toBeLessThan(1)
    const single = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
      item: {
        vaultAccountId: acct,
        assetId: assetId("ethereum", "sepolia", "USDC"),
        fromAddress: address,
        toAddress: EXTERNAL_ETH,
        amount: "10",
        feePriority: "slow",
      },
    })
    expect(single.status).toBe(201)
    expect(single.body.data.item).toMatchObject({ transactionRequestStatus: "created", amount: "10" })
    expect((await assets("ethereum", address)).USDC.totalAmount).toBe("50")
  })
})

describe("#17 UTXO request", () => {
  it("selects outputs, sends to many recipients and returns change to a new change address", async () => {
    const { acct, address } = await fund("bitcoin", "testnet", "BTC", "0.3")
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "bitcoin",
      network: "testnet",
      address,
      assetId: assetId("bitcoin", "testnet", "BTC"),
      amount: "0.2",
    })
    void acct
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/bitcoin/testnet/transaction-requests`, {
      item: {
        feePriority: "standard",
        prepareStrategy: "optimize_size",
        recipients: [
          { address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "0.1" },
          { address: "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", amount: "0.05" },
        ],
      },
    })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toMatchObject({ totalTransactionAmount: "0.15", transactionRequestStatus: "created", feePriority: "standard" })
    const vault = (await h.client.call<any>("GET", "/vaults/test")).body.data.items.find((v: any) => v.id === h.testVaultId)
    expect(vault.changeAddressesCount).toBe(1)
    const total = (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/assets`)).body.data.item.assets.find(
      (a: any) => a.symbol === "BTC",
    ).assetData.totalAmount
    expect(Number(total)).toBeLessThan(0.35)
    expect(Number(total)).toBeGreaterThan(0.349)
  })
})

describe("#20 and #21 tron feeless requests", () => {
  it("a TRX transfer uses the free bandwidth; a token transfer whose fee limit is too low ends mined-with-errors", async () => {
    const { acct, address } = await fund("tron", "nile", "TRX", "100")
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/feeless-transaction-requests`, {
      item: { amount: "10", recipientAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
    })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toMatchObject({
      recipient: [{ address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", amount: "10", unit: "TRX" }],
      sender: { address },
      totalAmount: { unit: "TRX", value: "10" },
    })
    expect((await assets("tron", address)).TRX.totalAmount).toBe("90")
    await fund("tron", "nile", "USDT", "50", { acct, address })
    const contract = (
      await h.client.call<any>("GET", "/supported-assets", { query: { assetUnit: "USDT", blockchain: "tron", networkType: "test" } })
    ).body.data.items[0].tokenData.contractAddress
    const t = await h.client.call<any>(
      "POST",
      `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/feeless-token-transaction-requests`,
      {
        item: { amount: "5", recipientAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", tokenIdentifier: contract, feeLimit: "1" },
      },
    )
    expect(t.status).toBe(201)
    expect(t.body.data.item.tokenTypeSpecificData).toEqual({ contractAddress: contract, feeLimit: "1", symbol: "USDT" })
    expect((await request(t.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("mined-with-errors")
    const after = await assets("tron", address)
    expect(after.USDT.totalAmount).toBe("50")
    expect(after.TRX.totalAmount).toBe("89")
  })
  it("a TRC-20 withdrawal sent without feeLimit echoes none (2024-05-09)", async () => {
    const v24 = h.clientFor(await createKey(h, { apiVersion: "2024-05-09" }))
    const { acct, address } = await fund("tron", "nile", "TRX", "100")
    await fund("tron", "nile", "USDT", "50", { acct, address })
    const contract = (
      await v24.call<any>("GET", "/supported-assets", { query: { assetUnit: "USDT", blockchain: "tron", networkType: "test" } })
    ).body.data.items[0].tokenData.contractAddress
    const t = await v24.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/feeless-token-transaction-requests`, {
      item: { amount: "5", recipientAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", tokenIdentifier: contract },
    })
    expect(t.status).toBe(201)
    expect(t.body.apiVersion).toBe("2024-05-09")
    expect(t.body.data.item.tokenTypeSpecificData).toEqual({ contractAddress: contract, symbol: "USDT" })
    expect((await request(t.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("success")
    expect((await assets("tron", address)).USDT.totalAmount).toBe("45")
  })
  it("#13 and #14 show the fee a transfer paid once mined: 0 when free bandwidth paid it, not the maximum reserved", async () => {
    const { address } = await fund("tron", "nile", "TRX", "100")
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/feeless-transaction-requests`, {
      item: { amount: "10", recipientAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
    })
    const txid = (await request(r.body.data.item.transactionRequestId)).transactionId
    const detail = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/tron/transactions/${txid}`)
    expect(detail.body.data.item.transactionFee).toEqual({ amount: "0", unitSymbol: "TRX" })
    const listed = (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)).body.data.items.find(
      (x: any) => x.transactionId === txid,
    )
    expect(listed.transactionFee).toEqual({ amount: "0", unitSymbol: "TRX" })
  })
})

describe("fault injection", () => {
  it("a broadcast failure fails the request and releases the funds; an execution failure spends only the fee", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/faults", { kind: "broadcast-failure" })
    const url = `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`
    const a = await h.client.call<any>("POST", url, { item: { amount: "0.5", feePriority: "slow", recipientAddress: EXTERNAL_ETH } })
    expect((await request(a.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("failed")
    expect((await assets("ethereum", address)).ETH).toMatchObject({ totalAmount: "1", blockedAmount: "0" })
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/faults", { kind: "execution-failure" })
    const b = await h.client.call<any>("POST", url, { item: { amount: "0.5", feePriority: "slow", recipientAddress: EXTERNAL_ETH } })
    expect((await request(b.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("mined-with-errors")
    const eth = (await assets("ethereum", address)).ETH
    expect(Number(eth.totalAmount)).toBeGreaterThan(0.99)
    expect(Number(eth.totalAmount)).toBeLessThan(1)
  })
  it("on a UTXO chain an execution failure is refused at broadcast: the request fails, its outputs stay spendable", async () => {
    // A UTXO transaction cannot fail once mined. Mined "with errors", it once debited its fee but kept its inputs
    // unspent: the balance said 0.00014791 BTC was available, yet 0.00009 could not be sent.
    const { address } = await fund("bitcoin", "testnet", "BTC", "0.0001")
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "bitcoin",
      network: "testnet",
      address,
      assetId: assetId("bitcoin", "testnet", "BTC"),
      amount: "0.00005",
    })
    await h.admin("POST", "/_sim/chains/bitcoin/testnet/faults", { kind: "execution-failure" })
    const send = () =>
      h.client.call<any>("POST", `/vaults/${h.testVaultId}/bitcoin/testnet/transaction-requests`, {
        item: { feePriority: "slow", recipients: [{ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "0.00009" }] },
      })
    const failed = await send()
    expect(failed.status).toBe(201)
    expect((await request(failed.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("failed")
    expect((await assets("bitcoin", address)).BTC).toMatchObject({ totalAmount: "0.00015", availableAmount: "0.00015", blockedAmount: "0" })
    const again = await send()
    expect([again.status, again.body.error?.code]).toEqual([201, undefined])
    expect((await request(again.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("success")
    const vault = (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/assets`)).body.data.item.assets.find(
      (a: any) => a.symbol === "BTC",
    ).assetData
    expect(Number(vault.totalAmount)).toBeLessThan(0.00006)
    expect(Number(vault.totalAmount)).toBeGreaterThan(0.0000575)
  })
})

describe("auto mining settles every block it mines", () => {
  it("a deposit's block gives a mined withdrawal its confirmations: it is successful when the deposit answers", async () => {
    const { address } = await fund("bitcoin", "testnet", "BTC", "0.001")
    await h.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 2 })
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/bitcoin/testnet/transaction-requests`, {
      item: { feePriority: "slow", recipients: [{ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "0.0001" }] },
    })
    const id = r.body.data.item.transactionRequestId
    expect((await request(id)).transactionRequestStatus).toBe("mined")
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "bitcoin",
      network: "testnet",
      address,
      assetId: assetId("bitcoin", "testnet", "BTC"),
      amount: "0.00001",
    })
    expect((await request(id)).transactionRequestStatus).toBe("success")
  })
  it("a withdrawal's block gives a deposit its confirmations: it is credited when the request answers", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 2 })
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      amount: "0.5",
    })
    expect((await assets("ethereum", address)).ETH.totalAmount).toBe("1")
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.1", feePriority: "slow", recipientAddress: EXTERNAL_ETH },
    })
    expect(r.status).toBe(201)
    const eth = (await assets("ethereum", address)).ETH
    expect(Number(eth.totalAmount)).toBeGreaterThan(1.39)
    expect(Number(eth.totalAmount)).toBeLessThan(1.4)
  })
})

describe("no double spend", () => {
  it("50 simultaneous requests against funds for 10: at most 10 accepted, no 5xx, balances consistent", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    await h.admin("PUT", `/_sim/vaults/${h.testVaultId}/approval-policy`, { mode: "manual", levels: 1 })
    const url = `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        h.client.call<any>("POST", url, { item: { amount: "0.0999", feePriority: "slow", recipientAddress: EXTERNAL_ETH } }),
      ),
    )
    expect(results.every((r) => r.status < 500)).toBe(true)
    const accepted = results.filter((r) => r.status === 201)
    expect(accepted.length).toBeLessThanOrEqual(10)
    expect(accepted.length).toBeGreaterThan(0)
    expect(results.filter((r) => r.status !== 201).every((r) => r.body.error.code === "insufficient_balance")).toBe(true)
    const eth = (await assets("ethereum", address)).ETH
    expect(Number(eth.blockedAmount) + Number(eth.availableAmount)).toBeCloseTo(1, 12)
    expect(Number(eth.availableAmount)).toBeGreaterThanOrEqual(0)
  })
})

describe("internal transfers", () => {
  it("a transfer to another vault's address is outgoing for the sender, incoming for the receiver, credited once confirmed", async () => {
    const { address } = await fund("ethereum", "sepolia", "ETH", "1")
    const other = (await h.admin("POST", "/_sim/vaults", { name: "Second", type: "test" })).body.id as string
    const acct = (
      await h.client.call<any>("POST", `/vaults/${other}/vault-account`, {
        item: { name: "b", color: "#000000", isHiddenInDashboard: false },
      })
    ).body.data.item.vaultAccountId
    const to = (
      await h.client.call<any>("PUT", `/vaults/${other}/vault-accounts/${acct}/add-asset`, {
        item: { assetId: assetId("ethereum", "sepolia", "ETH"), label: "in" },
      })
    ).body.data.item.address
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.3", feePriority: "slow", recipientAddress: to },
    })
    expect(r.status).toBe(201)
    const txid = (await request(r.body.data.item.transactionRequestId)).transactionId
    const received = (await h.client.call<any>("GET", `/vaults/${other}/ethereum/addresses/${to}/assets`)).body.data.item.assets[0]
      .assetData
    expect(received.totalAmount).toBe("0.3")
    const outgoing = (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/transactions/${txid}`)).body.data.item
    const incoming = (await h.client.call<any>("GET", `/vaults/${other}/ethereum/transactions/${txid}`)).body.data.item
    expect([outgoing.direction, outgoing.status]).toEqual(["client-internal", "completed"])
    expect([incoming.direction, incoming.status]).toEqual(["client-internal", "confirmed"])
    const list = (await h.client.call<any>("GET", `/vaults/${other}/transactions`)).body.data.items
    expect(list[0]).toMatchObject({ direction: "incoming", isInternal: "true", transactionId: txid })
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 3 })
    expect(
      (await h.client.call<any>("GET", `/vaults/${other}/ethereum/addresses/${to}/assets`)).body.data.item.assets[0].assetData.totalAmount,
    ).toBe("0.3")
  })
})
