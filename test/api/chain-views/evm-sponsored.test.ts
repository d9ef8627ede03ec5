// A gas-sponsored token transfer read by viem over a socket: the receipt's fee (gas used × effective gas price) is
// what the custody API reports, paid by the fee payer; the sender's and the fee payer's balances are the custody API's.
import { createPublicClient, erc20Abi, http, type PublicClient } from "viem"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { assetId } from "../../support/catalogue.js"
import { listen } from "../../support/server.js"
import { EXTERNAL_ETH, startSponsorWorld, type SponsorWorld } from "../../support/sponsor-world.js"

const USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"

let w: SponsorWorld
let server: { url: string; close: () => Promise<void> }
let viem: PublicClient
beforeEach(async () => {
  w = await startSponsorWorld()
  server = await listen(w.h.app)
  viem = createPublicClient({ cacheTime: 0, transport: http(`${server.url}/_chain/ethereum/sepolia`) })
})
afterEach(async () => {
  await server.close()
  await w.close()
})

const units = (decimal: string, decimals: number) => {
  const [whole, fraction = ""] = decimal.split(".")
  return BigInt(whole! + fraction.padEnd(decimals, "0"))
}
const custodyAssets = async (address: string) =>
  Object.fromEntries(
    (await w.h.client.call<any>("GET", `/vaults/${w.vaultId}/ethereum/addresses/${address}/assets`)).body.data.item.assets.map((a: any) => [
      a.symbol,
      a.assetData,
    ]),
  )

describe("a gas-sponsored transfer read by viem", () => {
  it("the receipt's fee is the custody API's, paid by the fee payer; both balances equal the custody API's", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "100" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const r = await w.post(`/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, {
      vaultAccountId: sender.acct,
      assetId: assetId("ethereum", "sepolia", "USDC"),
      fromAddress: sender.address,
      toAddress: EXTERNAL_ETH,
      amount: "40",
      feePayer: payer.address,
      feePriority: "fast",
      note: "sponsored payout",
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    const request = (await w.h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`)).body.data.item
    expect(request.transactionRequestStatus).toBe("success")
    const custody = (await w.get(`/vaults/${w.vaultId}/ethereum/transactions/${request.transactionId}`)).body.data.item
    const receipt = await viem.getTransactionReceipt({ hash: request.transactionId })
    expect(receipt.status).toBe("success")
    expect(receipt.gasUsed * receipt.effectiveGasPrice).toBe(units(custody.transactionFee.amount, 18))
    expect(receipt.gasUsed * receipt.effectiveGasPrice).toBeGreaterThan(0n)
    expect(receipt.blockNumber).toBe(BigInt(custody.minedInBlockHeight))
    expect(receipt.from).toBe(payer.address.toLowerCase())
    expect(receipt.logs.map((l) => l.address)).toEqual([USDC.toLowerCase()])
    const senderAssets = await custodyAssets(sender.address)
    const payerAssets = await custodyAssets(payer.address)
    expect(await viem.getBalance({ address: sender.address as `0x${string}` })).toBe(units(senderAssets.ETH.totalAmount, 18))
    expect(await viem.getBalance({ address: sender.address as `0x${string}` })).toBe(10n ** 18n)
    expect(await viem.getBalance({ address: payer.address as `0x${string}` })).toBe(units(payerAssets.ETH.totalAmount, 18))
    expect(await viem.getBalance({ address: payer.address as `0x${string}` })).toBe(
      10n ** 18n - receipt.gasUsed * receipt.effectiveGasPrice,
    )
    const balanceOf = (address: string) =>
      viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address as `0x${string}`] })
    expect(await balanceOf(sender.address)).toBe(units(senderAssets.USDC.totalAmount, 6))
    expect(await balanceOf(sender.address)).toBe(60_000_000n)
    expect(await balanceOf(EXTERNAL_ETH)).toBe(40_000_000n)
  })
})
