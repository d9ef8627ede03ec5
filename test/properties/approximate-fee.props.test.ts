// Property: approximate-fee answers the fee the transfer then pays. For a random asset, priority, amount, tron stake
// (TRX frozen for bandwidth and for energy: none, part of a transfer's or all of it) and history of earlier
// transfers from the same address (tron's free bandwidth runs out after five, a stake after a few), the estimate,
// then creating and mining the same transfer with nothing in between, give the same fee: the one the request's
// TxRequestMined records and the transaction detail shows.
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { CustodyClient } from "../../src/client/index.js"
import { formatAmount } from "../../src/domain/shared/money.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"

let h: Harness
let v26: CustodyClient
let snapshot: string

beforeAll(async () => {
  h = await startHarness()
  v26 = h.clientFor(await createKey(h, { apiVersion: "2026-03-20" }))
  snapshot = (await h.admin("POST", "/_sim/snapshots")).body.id
})
afterAll(async () => h.close())

const DECIMALS = { ETH: 18, TRX: 6, SOL: 9, XRP: 6 } as const

const KINDS = [
  { blockchain: "ethereum", network: "sepolia", coin: "ETH", symbol: "ETH", to: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" },
  { blockchain: "ethereum", network: "sepolia", coin: "ETH", symbol: "USDC", to: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" },
  { blockchain: "tron", network: "nile", coin: "TRX", symbol: "TRX", to: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
  { blockchain: "tron", network: "nile", coin: "TRX", symbol: "USDT", to: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
  { blockchain: "solana", network: "devnet", coin: "SOL", symbol: "SOL", to: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" },
  { blockchain: "solana", network: "devnet", coin: "SOL", symbol: "USDC", to: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" },
  { blockchain: "xrp", network: "testnet", coin: "XRP", symbol: "XRP", to: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh" },
] as const

it("the estimate equals the fee the transfer pays when mined in the same state", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...KINDS),
      fc.constantFrom("slow", "standard", "fast"),
      fc.integer({ min: 1, max: 999 }),
      fc.integer({ min: 0, max: 7 }),
      fc.record({ bandwidth: fc.integer({ min: 0, max: 900 }), energy: fc.integer({ min: 0, max: 14_000 }) }),
      async (k, feePriority, cents, earlier, stake) => {
        await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`)
        await h.admin("PUT", `/_sim/chains/${k.blockchain}/${k.network}/mining`, { mode: "auto", confirmations: 1 })
        const acct = (
          await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
            item: { name: "p", color: "#000000", isHiddenInDashboard: false },
          })
        ).body.data.item.vaultAccountId
        let address = ""
        for (const symbol of new Set([k.coin, k.symbol])) {
          const id = assetId(k.blockchain, k.network, symbol)
          const item = address === "" ? { assetId: id, label: "p" } : { assetId: id, address }
          address = (await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item
            .address
          await h.admin("POST", "/_sim/deposits", {
            blockchain: k.blockchain,
            network: k.network,
            address,
            assetId: id,
            amount: k.blockchain === "tron" && symbol === "TRX" ? "20000" : "500",
          })
        }
        // 1 bandwidth and 10 energy a day per TRX staked: a TRX transfer takes 268 bandwidth, a USDT one 65,000 energy.
        if (k.blockchain === "tron")
          for (const [resource, amount] of Object.entries(stake))
            if (amount > 0)
              expect(
                (
                  await h.client.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/manage-resource`, {
                    item: { type: "freeze", resource, amount: `${amount}` },
                  })
                ).status,
              ).toBe(201)
        const transfer = {
          vaultAccountId: acct,
          assetId: assetId(k.blockchain, k.network, k.symbol),
          fromAddress: address,
          toAddress: k.to,
          amount: `${cents / 100}`,
          feePriority,
        }
        const send = (item: object) =>
          v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, { item: { ...item, note: "p" } })
        for (let i = 0; i < earlier; i++)
          expect((await send({ ...transfer, assetId: assetId(k.blockchain, k.network, k.coin), amount: "0.01" })).status).toBe(201)
        const estimate = await v26.call<any>("POST", `/vaults/${h.testVaultId}/approximate-fee`, {
          item: { transactionType: "single", ...transfer },
        })
        expect(estimate.status).toBe(200)
        const created = await send({ ...transfer, maxFee: estimate.body.data.item.fee.amount })
        expect(created.status).toBe(201)
        const id = created.body.data.item.transactionRequestId
        const mined = h.sim.models.txRequests.byId.get(id)?.mined
        const draft = h.sim.models.txRequests.byId.get(id)!.draft
        const detail = await v26.call<any>("GET", `/vaults/${h.testVaultId}/${k.blockchain}/transactions/${draft.transactionId}`)
        expect(detail.body.data.item.transactionFee).toEqual({ amount: estimate.body.data.item.fee.amount, amountUnit: k.coin })
        expect(mined?.fee).toBeDefined()
        expect(BigInt(mined!.fee) <= BigInt(draft.maxFee)).toBe(true)
        expect(estimate.body.data.item.maxFee.amount).toBe(formatAmount(BigInt(draft.maxFee), DECIMALS[k.coin]))
      },
    ),
    { numRuns: 25 },
  )
}, 300_000) // 25 runs of a revert, funding and up to nine requests each: past vitest's default on a loaded machine
