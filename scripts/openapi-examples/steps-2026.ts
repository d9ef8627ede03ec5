// The 2026-03-20 scenario: what every version has (steps.ts), then the account reads and edits, the sponsored and
// batch transfers, the fee estimate, UTXO selection, a TRC-20 approval, Tron resources and XRP X-addresses.
import { shared } from "./steps.js"
import { assetId, EXTERNAL_BTC, EXTERNAL_ETH, type World, XRP_CLASSIC } from "./world.js"

const ETH = assetId("ethereum", "sepolia", "ETH")
const USDC = assetId("ethereum", "sepolia", "USDC")
const BTC = assetId("bitcoin", "testnet", "BTC")
const USDT = assetId("tron", "nile", "USDT")

const accounts = async (w: World, acct: string, address: string) => {
  const at = `/vaults/${w.vaultId}/vault-accounts`
  await w.call("listVaultAccounts", "GET", `${at}/details`, undefined, { limit: "10" })
  await w.call("getVaultAccount", "GET", `${at}/${acct}/details`)
  await w.call("editVaultAccount", "PUT", `${at}/${acct}/edit`, { name: "ethereum payouts (EU)", isFavoriteInDashboard: true })
  await w.call("listVaultAccountAssets", "GET", `${at}/${acct}/list-assets`, undefined, { limit: "10" })
  await w.call("listVaultAccountAddresses", "GET", `${at}/${acct}/list-addresses`, undefined, { limit: "10" })
  await w.call("listVaultAccountTransactions", "GET", `${at}/${acct}/transactions`, undefined, { limit: "5" })
  await w.call("listAddressAssetsAcrossChains", "GET", `/vaults/${w.vaultId}/addresses/${address}/assets`)
  await w.call("getAddressBalance", "GET", `/vaults/${w.vaultId}/addresses/${address}/balance`, undefined, { blockchain: "ethereum" })
}

const sponsored = async (w: World, sender: { acct: string; address: string }) => {
  const v = w.vaultId
  const payer = await w.funded("ethereum", "sepolia", { ETH: "1" })
  await w.call("estimateApproximateFee", "POST", `/vaults/${v}/approximate-fee`, {
    transactionType: "single",
    vaultAccountId: sender.acct,
    assetId: USDC,
    fromAddress: sender.address,
    toAddress: EXTERNAL_ETH,
    amount: "40",
    feePriority: "fast",
  })
  await w.call("createGasSponsorshipTransferRequest", "POST", `/vaults/${v}/transaction-requests/gas-sponsorship-transfer`, {
    vaultAccountId: sender.acct,
    assetId: USDC,
    fromAddress: sender.address,
    toAddress: EXTERNAL_ETH,
    amount: "40",
    feePayer: payer.address,
    feePriority: "fast",
    note: "sponsored payout",
  })
  await w.call("createBatchTransactionRequest", "POST", `/vaults/${v}/transaction-requests/batch`, {
    senderAddress: sender.address,
    feePayer: { address: payer.address, assetId: ETH },
    feePriority: "fast",
    note: "payroll",
    recipients: [
      { address: EXTERNAL_ETH, amount: "0.1", assetId: ETH },
      { address: EXTERNAL_ETH, amount: "10", assetId: USDC },
    ],
  })
}

const utxos = async (w: World, btc: { acct: string; address: string }) => {
  const v = w.vaultId
  const listed = await w.call("listUtxos", "GET", `/vaults/${v}/utxos`, undefined, { assetId: BTC, isSpent: "false", limit: "10" })
  const transfer = {
    assetId: BTC,
    feePriority: "standard",
    note: "supplier",
    senders: [{ utxoId: listed.items[0].utxoId }],
    recipients: [{ address: EXTERNAL_BTC, amount: "0.002" }],
  }
  await w.call("validateUtxoTransfer", "POST", `/vaults/${v}/transaction-requests/utxo-transfer/validate`, transfer)
  await w.call("createUtxoTransfer", "POST", `/vaults/${v}/transaction-requests/utxo-transfer`, transfer)
  await w.funded("bitcoin", "testnet", { BTC: "0.01" })
  await w.call("createMultipleTransfer", "POST", `/vaults/${v}/transaction-requests/multiple-transfer`, {
    vaultAccountId: btc.acct,
    assetId: BTC,
    feePriority: "standard",
    note: "refunds",
    prepareStrategy: "minimize_dust",
    recipients: [{ address: EXTERNAL_BTC, amount: "0.001" }],
  })
}

const tron = async (w: World, holder: { address: string }) => {
  const v = w.vaultId
  const payer = await w.funded("tron", "nile", { TRX: "100" })
  await w.call("getTronResourceOverview", "GET", `/vaults/${v}/tron/nile/${holder.address}/overview`)
  await w.call("createContractInteractionRequest", "POST", `/vaults/${v}/transaction-requests/contract-interaction`, {
    method: "approve",
    assetId: USDT,
    fromAddress: holder.address,
    feePayer: payer.address,
    note: "allow the fee payer",
  })
}

export const steps2026 = async (w: World): Promise<void> => {
  const { sender, transfer, tron: holder, btc } = await shared(w)
  await w.call("getTransactionRequestV2", "GET", `/transaction-requests/${transfer}`)
  await accounts(w, sender.acct, sender.address)
  await sponsored(w, sender)
  await utxos(w, btc)
  await tron(w, holder)
  const encoded = await w.call("encodeXrpAddress", "GET", `/utils/xrp/testnet/addresses/encode/${XRP_CLASSIC}/12345`)
  await w.call("decodeXrpAddress", "GET", `/utils/xrp/testnet/addresses/decode/${encoded.item.xAddress}`)
}
