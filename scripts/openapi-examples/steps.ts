// The scenario the examples come from, one per version: funded accounts on Ethereum Sepolia, Bitcoin testnet and
// Tron Nile, then every operation of the version once, as an integrator would call them (reads after the writes
// they show). The first answer of each operation is its example (world.ts).
import { classicAddressToXAddress } from "ripple-address-codec"
import { assetId, contractOf, EXTERNAL_BTC, EXTERNAL_ETH, EXTERNAL_TRON, type World, XRP_CLASSIC } from "./world.js"

const ETH = assetId("ethereum", "sepolia", "ETH")

/** What every version has: vaults, accounts, addresses, assets, transactions, a single transfer and a Tron stake. */
export const shared = async (w: World) => {
  const v = w.vaultId
  const sender = await w.funded("ethereum", "sepolia", { ETH: "2.5", USDC: "500" })
  await w.call("listVaults", "GET", "/vaults", undefined, { limit: "10" })
  await w.call("listVaultsByNetworkType", "GET", "/vaults/test")
  await w.call("listSupportedAssets", "GET", "/supported-assets", undefined, {
    assetUnit: "ETH",
    blockchain: "ethereum",
    networkType: "test",
  })
  await w.call("generateDepositAddress", "POST", `/vaults/${v}/ethereum/sepolia/addresses`, {
    label: "customer 1042",
    vaultAccountId: sender.acct,
  })
  await w.call("validateAddress", "POST", "/info/ethereum/sepolia/addresses/validate", { address: EXTERNAL_ETH })
  await w.call("listAssetsByNetworkType", "GET", "/assets/test", undefined, { limit: "5" })
  await w.call("listVaultAssets", "GET", `/vaults/${v}/assets`)
  await w.call("listAssetVaults", "GET", `/assets/${ETH}/ethereum/vaults/test`)
  const transfer = (
    await w.call("createSingleTransferRequest", "POST", `/vaults/${v}/transaction-requests/single-transfer`, {
      vaultAccountId: sender.acct,
      assetId: ETH,
      fromAddress: sender.address,
      toAddress: EXTERNAL_ETH,
      amount: "0.25",
      feePriority: "standard",
      note: "payout 1",
    })
  ).item.transactionRequestId as string
  await w.call("listVaultTransactions", "GET", `/vaults/${v}/transactions`, undefined, { limit: "5" })
  await w.call("getVaultTransaction", "GET", `/vaults/${v}/ethereum/transactions/${sender.deposits[0]}`)
  const tron = await w.funded("tron", "nile", { TRX: "5000", USDT: "100" })
  await w.call("manageTronResource", "POST", `/vaults/${v}/tron/nile/addresses/${tron.address}/manage-resource`, {
    type: "freeze",
    resource: "energy",
    amount: "2000",
  })
  const btc = await w.funded("bitcoin", "testnet", { BTC: "0.05" })
  return { sender, transfer, tron, btc }
}

const utxoRequest = async (w: World, note: string | undefined) =>
  w.call("createUtxoTransactionRequest", "POST", `/vaults/${w.vaultId}/bitcoin/testnet/transaction-requests`, {
    feePriority: "standard",
    recipients: [{ address: EXTERNAL_BTC, amount: "0.001" }],
    ...(note !== undefined ? { note } : {}),
  })

export const steps2024 = async (w: World): Promise<void> => {
  const v = w.vaultId
  const { sender, transfer, tron } = await shared(w)
  await w.call("getTransactionRequest", "GET", `/transactionRequests/${transfer}`)
  await w.call("listAssetAddresses", "GET", `/assets/${ETH}/vaults/${v}/ethereum/sepolia/addresses`)
  await w.call("listAddressAssets", "GET", `/vaults/${v}/ethereum/addresses/${sender.address}/assets`)
  await utxoRequest(w, "cold storage")
  const chain = `/vaults/${v}/ethereum/sepolia/addresses/${sender.address}`
  await w.call("createCoinTransactionRequest", "POST", `${chain}/transaction-requests`, {
    amount: "0.1",
    feePriority: "fast",
    recipientAddress: EXTERNAL_ETH,
    note: "refund",
  })
  await w.call("createTokenTransactionRequest", "POST", `${chain}/token-transaction-requests`, {
    amount: "25",
    feePriority: "standard",
    recipientAddress: EXTERNAL_ETH,
    tokenIdentifier: contractOf("ethereum", "sepolia", "USDC"),
  })
  const nile = `/vaults/${v}/tron/nile/addresses/${tron.address}`
  await w.call("createFeelessTransactionRequest", "POST", `${nile}/feeless-transaction-requests`, {
    amount: "10",
    recipientAddress: EXTERNAL_TRON,
  })
  await w.call("createFeelessTokenTransactionRequest", "POST", `${nile}/feeless-token-transaction-requests`, {
    amount: "5",
    recipientAddress: EXTERNAL_TRON,
    tokenIdentifier: contractOf("tron", "nile", "USDT"),
    feeLimit: "30",
  })
}

export const steps2025 = async (w: World): Promise<void> => {
  const v = w.vaultId
  const { sender, transfer } = await shared(w)
  await w.call("getTransactionRequest", "GET", `/transactionRequests/${transfer}`)
  await w.call("listAssetAddresses", "GET", `/assets/${ETH}/vaults/${v}/ethereum/sepolia/addresses`)
  await w.call("listAddressAssetsAcrossChains", "GET", `/vaults/${v}/addresses/${sender.address}/assets`)
  await utxoRequest(w, "cold storage")
  await w.call("createVaultTokenTransactionRequest", "POST", `/vaults/${v}/ethereum/sepolia/token-transaction-requests`, {
    amount: "25",
    contractAddress: contractOf("ethereum", "sepolia", "USDC"),
    senderAddress: sender.address,
    recipientAddress: EXTERNAL_ETH,
    note: "invoice 77",
    feePriority: "standard",
  })
  await w.call("decodeXrpAddress", "GET", `/utils/xrp/testnet/addresses/decode/${classicAddressToXAddress(XRP_CLASSIC, 12345, true)}`)
}
