// Property: for random deposits and withdrawals of a coin and a token, the EVM chain view read by viem adds up at
// every block: an address's Transfer logs sum to its balanceOf, its native transfers less its fees to its balance,
// and at the tip both are its custody balance.
import fc from "fast-check"
import { createPublicClient, erc20Abi, http, parseAbiItem } from "viem"
import { describe, expect, it } from "vitest"
import { assetId } from "../support/catalogue.js"
import { startHarness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { PROPERTY_TIMEOUT_MS, runs } from "./budget.js"

type Step = { readonly kind: "deposit" | "withdraw"; readonly token: boolean; readonly amount: number }

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom("deposit" as const, "deposit" as const, "withdraw" as const),
  token: fc.boolean(),
  amount: fc.integer({ min: 1, max: 50 }),
})

const USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
const EXTERNAL = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)")
const units = (decimal: string, decimals: number) => {
  const [whole, fraction = ""] = decimal.split(".")
  return BigInt(whole! + fraction.padEnd(decimals, "0"))
}

describe("the EVM chain view adds up", () => {
  it(
    "at every block, Transfer logs sum to balanceOf and native transfers less fees to the balance; at the tip, the custody balance",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          const h = await startHarness()
          const server = await listen(h.app)
          try {
            const viem = createPublicClient({ cacheTime: 0, transport: http(`${server.url}/_chain/ethereum/sepolia`) })
            await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
            const acct = (
              await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
                item: { name: "a", color: "#000000", isHiddenInDashboard: false },
              })
            ).body.data.item.vaultAccountId
            const add = (item: object) => h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })
            const address = (await add({ assetId: assetId("ethereum", "sepolia", "ETH"), label: "w" })).body.data.item
              .address as `0x${string}`
            await add({ assetId: assetId("ethereum", "sepolia", "USDC"), address })
            for (const s of steps) {
              const amount = s.token ? String(s.amount) : `0.${String(s.amount).padStart(3, "0")}`
              if (s.kind === "deposit")
                await h.admin("POST", "/_sim/deposits", {
                  blockchain: "ethereum",
                  network: "sepolia",
                  address,
                  assetId: assetId("ethereum", "sepolia", s.token ? "USDC" : "ETH"),
                  amount,
                })
              else {
                const base = `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}`
                // Refused for want of funds sometimes: then nothing is sent, and nothing is to add up.
                await h.client.call<any>("POST", s.token ? `${base}/token-transaction-requests` : `${base}/transaction-requests`, {
                  item: { amount, feePriority: "standard", recipientAddress: EXTERNAL, ...(s.token ? { tokenIdentifier: USDC } : {}) },
                })
              }
            }
            const tip = await viem.getBlockNumber()
            const logs = await viem.getLogs({ address: USDC, event: transferEvent, fromBlock: 0n, toBlock: tip })
            const me = address.toLowerCase()
            let tokens = 0n
            let coins = 0n
            for (let n = 0n; n <= tip; n++) {
              for (const l of logs.filter((x) => x.blockNumber === n)) {
                if (l.args.to!.toLowerCase() === me) tokens += l.args.value!
                if (l.args.from!.toLowerCase() === me) tokens -= l.args.value!
              }
              const block = await viem.getBlock({ blockNumber: n, includeTransactions: true })
              for (const tx of block.transactions) {
                const receipt = await viem.getTransactionReceipt({ hash: tx.hash })
                if (tx.to?.toLowerCase() === me && receipt.status === "success") coins += tx.value
                if (tx.from.toLowerCase() === me) coins -= tx.value + receipt.gasUsed * receipt.effectiveGasPrice
              }
              expect(
                await viem.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [address], blockNumber: n }),
              ).toBe(tokens)
              expect(await viem.getBalance({ address, blockNumber: n })).toBe(coins)
            }
            const custody = Object.fromEntries(
              (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/addresses/${address}/assets`)).body.data.item.assets.map(
                (a: any) => [a.symbol, a.assetData.totalAmount],
              ),
            )
            expect([coins, tokens]).toEqual([units(custody.ETH ?? "0", 18), units(custody.USDC ?? "0", 6)])
          } finally {
            await server.close()
            await h.close()
          }
        }),
        { numRuns: runs(0.2) },
      )
    },
    PROPERTY_TIMEOUT_MS,
  )
})
