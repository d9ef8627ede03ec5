// A scripted scenario over HTTP touching every read model: vaults, accounts, addresses, deposits (held and
// retroactive), manual and interval mining, clock advances, exchange rates, approvals, rejections, withdrawals.
import { expect } from "vitest"
import type { Fixture } from "../../src/simulator.js"
import { assetId } from "./catalogue.js"
import type { Harness } from "./harness.js"

/** The key comes first in the log (position 0), so every later position can be read with it; no rate limit to speak of. */
export const scenarioFixture: Fixture = {
  apiKeys: [{ name: "scenario", apiVersion: "2024-05-09", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
}

export const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

export interface ScenarioIds {
  readonly testVaultId: string
  readonly mainVaultId: string
  readonly ethAddress: string
  readonly btcAddress: string
  readonly depositTxIds: ReadonlyArray<string>
  readonly requestIds: ReadonlyArray<string>
}

const ok = <T extends { status: number }>(r: T, ...statuses: Array<number>): T => {
  expect(statuses.length === 0 ? [200, 201] : statuses).toContain(r.status)
  return r
}

export const runScenario = async (h: Harness): Promise<ScenarioIds> => {
  const admin = async (method: string, path: string, body?: unknown) => ok(await h.admin<any>(method, path, body)).body
  const call = async (method: "GET" | "POST" | "PUT", path: string, item?: unknown) =>
    ok(await h.client.call<any>(method, path, item === undefined ? {} : { item })).body.data.item
  const advance = (seconds: number) => admin("POST", "/_sim/clock/advance", { seconds })

  const testVaultId = (await admin("POST", "/_sim/vaults", { name: "Ops", type: "test", color: "#112233" })).id as string
  const mainVaultId = (await admin("POST", "/_sim/vaults", { name: "Treasury", type: "main" })).id as string
  await admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 2 })
  await admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "interval", intervalSeconds: 600, confirmations: 1 })

  const eth = assetId("ethereum", "sepolia", "ETH")
  const usdc = assetId("ethereum", "sepolia", "USDC")
  const btc = assetId("bitcoin", "testnet", "BTC")
  const acctA = (
    await call("POST", `/vaults/${testVaultId}/vault-account`, { name: "alpha", color: "#AA0000", isHiddenInDashboard: false })
  ).vaultAccountId
  const ethAddress = (await call("PUT", `/vaults/${testVaultId}/vault-accounts/${acctA}/add-asset`, { assetId: eth, label: "eth" }))
    .address as string
  const deposit = async (blockchain: string, network: string, address: string, asset: string, amount: string) =>
    (await admin("POST", "/_sim/deposits", { blockchain, network, address, assetId: asset, amount })).transactionId as string
  const d1 = await deposit("ethereum", "sepolia", ethAddress, eth, "1.5")
  const d2 = await deposit("ethereum", "sepolia", ethAddress, usdc, "25")
  await admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
  await advance(30)
  await admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
  await call("PUT", `/vaults/${testVaultId}/vault-accounts/${acctA}/add-asset`, { assetId: usdc, address: ethAddress })
  await admin("PUT", "/_sim/exchange-rates", { rates: { ETH: "3500.25" } })

  const acctB = (await call("POST", `/vaults/${testVaultId}/vault-account`, { name: "beta", color: "#00AA00", isHiddenInDashboard: true }))
    .vaultAccountId
  const btcAddress = (await call("PUT", `/vaults/${testVaultId}/vault-accounts/${acctB}/add-asset`, { assetId: btc, label: "btc" }))
    .address as string
  const d3 = await deposit("bitcoin", "testnet", btcAddress, btc, "0.3")
  await advance(600)
  await call("POST", `/vaults/${testVaultId}/ethereum/sepolia/addresses`, { label: "vault-level" })

  await admin("PUT", `/_sim/vaults/${testVaultId}/approval-policy`, { mode: "manual", levels: 1 })
  const send = async (amount: string) =>
    (
      await call("POST", `/vaults/${testVaultId}/ethereum/sepolia/addresses/${ethAddress}/transaction-requests`, {
        amount,
        feePriority: "standard",
        recipientAddress: EXTERNAL_ETH,
      })
    ).transactionRequestId as string
  const r1 = await send("0.2")
  await advance(5)
  await admin("POST", `/_sim/transaction-requests/${r1}/approve`, {})
  await admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
  const r2 = await send("0.1")
  await admin("POST", `/_sim/transaction-requests/${r2}/reject`, { reason: "not today" })
  await advance(12)
  await admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
  await admin("PUT", "/_sim/exchange-rates", { rates: { BTC: "97000", USDC: "0.9998" } })

  await admin("PUT", "/_sim/chains/ethereum/mainnet/mining", { mode: "auto", confirmations: 1 })
  const acctM = (await call("POST", `/vaults/${mainVaultId}/vault-account`, { name: "main", color: "#0000AA", isHiddenInDashboard: false }))
    .vaultAccountId
  const mainEth = (
    await call("PUT", `/vaults/${mainVaultId}/vault-accounts/${acctM}/add-asset`, {
      assetId: assetId("ethereum", "mainnet", "ETH"),
      label: "treasury",
    })
  ).address
  const d4 = await deposit("ethereum", "mainnet", mainEth, assetId("ethereum", "mainnet", "ETH"), "2")
  await advance(3600)
  const d5 = await deposit("bitcoin", "testnet", btcAddress, btc, "0.05")
  await advance(601)

  // A UTXO request from the whole vault (change to a new change address), then a token request.
  const r3 = (
    await call("POST", `/vaults/${testVaultId}/bitcoin/testnet/transaction-requests`, {
      feePriority: "standard",
      recipients: [
        { address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "0.1" },
        { address: "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", amount: "0.05" },
      ],
    })
  ).transactionRequestId as string
  await admin("POST", `/_sim/transaction-requests/${r3}/approve`, {})
  await advance(600)
  const contract = (
    await h.client.call<any>("GET", "/supported-assets", { query: { assetUnit: "USDC", blockchain: "ethereum", networkType: "test" } })
  ).body.data.items[0].tokenData.contractAddress as string
  const r4 = (
    await call("POST", `/vaults/${testVaultId}/ethereum/sepolia/addresses/${ethAddress}/token-transaction-requests`, {
      amount: "5",
      feePriority: "fast",
      recipientAddress: EXTERNAL_ETH,
      tokenIdentifier: contract,
    })
  ).transactionRequestId as string
  await advance(1)
  await admin("POST", `/_sim/transaction-requests/${r4}/approve`, {})
  await admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 2 })
  await advance(1200)
  return { testVaultId, mainVaultId, ethAddress, btcAddress, depositTxIds: [d1, d2, d3, d4, d5], requestIds: [r1, r2, r3, r4] }
}
