// The EVM chain view read by an unmodified client (viem) over a socket: chain id, blocks, transactions, receipts,
// balances, ERC-20 balanceOf and Transfer logs of a scripted flow, each equal to what the custody API reports.
import { createPublicClient, erc20Abi, http, parseAbiItem, type PublicClient } from "viem"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { assetId } from "../../support/catalogue.js"
import { startHarness, type Harness } from "../../support/harness.js"
import { listen } from "../../support/server.js"

const EXTERNAL = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)")

let h: Harness
let server: { url: string; close: () => Promise<void> }
let viem: PublicClient
beforeEach(async () => {
  h = await startHarness()
  server = await listen(h.app)
  // cacheTime 0: every read asks the server (viem keeps a block number for its polling interval otherwise).
  viem = createPublicClient({ cacheTime: 0, transport: http(`${server.url}/_chain/ethereum/sepolia`) })
})
afterEach(async () => {
  await server.close()
  await h.close()
})

const deposit = async (address: string, symbol: string, amount: string): Promise<`0x${string}`> => {
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

/** A vault address holding ETH and USDC, with 1 ETH and 100 USDC deposited and credited. */
const funded = async () => {
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const acct = (
    await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const add = (item: object) => h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })
  const address = (await add({ assetId: assetId("ethereum", "sepolia", "ETH"), label: "w" })).body.data.item.address as `0x${string}`
  await add({ assetId: assetId("ethereum", "sepolia", "USDC"), address })
  const coinDeposit = await deposit(address, "ETH", "1")
  const tokenDeposit = await deposit(address, "USDC", "100")
  return { address, coinDeposit, tokenDeposit }
}

const custodyAssets = async (address: string) =>
  Object.fromEntries(
    (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/addresses/${address}/assets`)).body.data.item.assets.map(
      (a: any) => [a.symbol, a.assetData],
    ),
  )
const custodyTransaction = async (transactionId: string) =>
  (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/transactions/${transactionId}`)).body.data.item
const height = async () =>
  (await h.admin("GET", "/_sim/chains")).body.chains.find((c: any) => c.blockchain === "ethereum" && c.network === "sepolia").height

const units = (decimal: string, decimals: number) => {
  const [whole, fraction = ""] = decimal.split(".")
  return BigInt(whole! + fraction.padEnd(decimals, "0"))
}

describe("EVM JSON-RPC read by viem", () => {
  it("shows the chain id, the height, the deposits' blocks and transactions, and the balances the custody API reports", async () => {
    const { address, coinDeposit, tokenDeposit } = await funded()
    expect(await viem.getChainId()).toBe(11155111)
    expect(Number(await viem.getBlockNumber())).toBe(await height())
    const custody = await custodyTransaction(coinDeposit)
    const tx = await viem.getTransaction({ hash: coinDeposit })
    expect(tx).toMatchObject({
      hash: coinDeposit,
      to: address.toLowerCase(),
      value: 10n ** 18n,
      blockNumber: BigInt(custody.minedInBlockHeight),
    })
    const block = await viem.getBlock({ blockNumber: tx.blockNumber!, includeTransactions: true })
    expect(block.hash).toBe(custody.minedInBlockHash)
    expect(block.transactions.map((t) => t.hash)).toContain(coinDeposit)
    expect((await viem.getBlock({ blockHash: block.hash })).number).toBe(tx.blockNumber)
    const assets = await custodyAssets(address)
    expect(await viem.getBalance({ address })).toBe(units(assets.ETH.totalAmount, 18))
    expect(await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address] })).toBe(
      units(assets.USDC.totalAmount, 6),
    )
    expect(await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "symbol" })).toBe("USDC")
    expect(await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "decimals" })).toBe(6)
    const logs = await viem.getLogs({ address: USDC, event: transferEvent, args: { to: address }, fromBlock: 0n })
    expect(logs.map((l) => [l.transactionHash, l.args.value])).toEqual([[tokenDeposit, 100_000_000n]])
    expect(await viem.getCode({ address: USDC })).not.toBe("0x")
  })

  it("a coin and a token withdrawal: their receipts' fee is the custody API's, their logs and balances follow", async () => {
    const { address } = await funded()
    const base = `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}`
    const coin = await h.client.call<any>("POST", `${base}/transaction-requests`, {
      item: { amount: "0.25", feePriority: "standard", recipientAddress: EXTERNAL },
    })
    const token = await h.client.call<any>("POST", `${base}/token-transaction-requests`, {
      item: { amount: "40", feePriority: "fast", recipientAddress: EXTERNAL, tokenIdentifier: USDC },
    })
    for (const [r, symbol] of [
      [coin, "ETH"],
      [token, "USDC"],
    ] as const) {
      const request = (await h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`)).body.data.item
      expect(request.transactionRequestStatus).toBe("success")
      const custody = await custodyTransaction(request.transactionId)
      const receipt = await viem.getTransactionReceipt({ hash: request.transactionId })
      expect(receipt.status).toBe("success")
      expect(receipt.gasUsed * receipt.effectiveGasPrice).toBe(units(custody.transactionFee.amount, 18))
      expect(receipt.blockNumber).toBe(BigInt(custody.minedInBlockHeight))
      expect(receipt.from).toBe(address.toLowerCase())
      if (symbol === "USDC") expect(receipt.logs.map((l) => l.topics.length)).toEqual([3])
      else expect(receipt.logs).toEqual([])
    }
    const assets = await custodyAssets(address)
    expect(await viem.getBalance({ address })).toBe(units(assets.ETH.totalAmount, 18))
    expect(await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address] })).toBe(60_000_000n)
    expect(await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [EXTERNAL] })).toBe(40_000_000n)
    expect(await viem.getTransactionCount({ address })).toBe(2)
    const out = await viem.getLogs({ address: USDC, event: transferEvent, args: { from: address }, fromBlock: 0n, toBlock: "latest" })
    expect(out.map((l) => l.args)).toEqual([{ from: address, to: EXTERNAL, value: 40_000_000n }])
  })

  it("answers as of a block: the balance and logs before a deposit's block and after it", async () => {
    const { address, tokenDeposit } = await funded()
    const mined = (await viem.getTransaction({ hash: tokenDeposit })).blockNumber!
    const balanceOf = (blockNumber: bigint) =>
      viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address], blockNumber })
    expect(await balanceOf(mined - 1n)).toBe(0n)
    expect(await balanceOf(mined)).toBe(100_000_000n)
    expect(await viem.getLogs({ address: USDC, event: transferEvent, fromBlock: 0n, toBlock: mined - 1n })).toEqual([])
    expect((await viem.getLogs({ address: USDC, event: transferEvent, fromBlock: mined, toBlock: mined })).length).toBe(1)
    const coinBlock = mined - 1n
    expect(await viem.getBalance({ address, blockNumber: coinBlock - 1n })).toBe(0n)
    expect(await viem.getBalance({ address, blockNumber: coinBlock })).toBe(10n ** 18n)
  })

  it("after a revert shows the chain as it was at the snapshot", async () => {
    const { address } = await funded()
    const snapshot = (await h.admin("POST", "/_sim/snapshots", {})).body.id
    const tip = await viem.getBlockNumber()
    const later = await deposit(address, "USDC", "5")
    expect(await viem.getBlockNumber()).toBe(tip + 1n)
    expect((await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`, {})).status).toBe(200)
    expect(await viem.getBlockNumber()).toBe(tip)
    await expect(viem.getTransaction({ hash: later })).rejects.toThrow(/could not be found/)
    expect(await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address] })).toBe(100_000_000n)
    expect(await viem.getBlock({ blockNumber: tip + 1n }).catch((e: Error) => e.name)).toBe("BlockNotFoundError")
  })

  it("shows a transaction in the mempool as pending: no block, no receipt, in the pending block", async () => {
    const { address } = await funded()
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual" })
    const waiting = await deposit(address, "ETH", "0.5")
    expect((await viem.getTransaction({ hash: waiting })).blockNumber).toBeNull()
    await expect(viem.getTransactionReceipt({ hash: waiting })).rejects.toThrow(/could not be found/)
    expect((await viem.getBlock({ blockTag: "pending" })).transactions).toEqual([waiting])
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
    expect((await viem.getTransactionReceipt({ hash: waiting })).blockNumber).toBe(await viem.getBlockNumber())
  })
})
