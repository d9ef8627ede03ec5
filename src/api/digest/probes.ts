// Every request of the spec's read endpoints that the read models can answer: one probe per resource.
import { classicAddressToXAddress } from "ripple-address-codec"
import { findAsset } from "../../domain/chains/index.js"
import type { AsOf } from "../../projections/projection.js"
import type { ReadModels } from "../../projections/read-models.js"

export interface Probe {
  /** Operation id in src/api/routes (e.g. "listVaultAssets"). */
  readonly opId: string
  /** The concrete path, e.g. `/vaults/<id>/assets`. */
  readonly path: string
  readonly params: Readonly<Record<string, string>>
  /** The version to ask it at, for an operation the first version lacks (sent as x-api-version). */
  readonly apiVersion?: string
}

/** Operations the probes cover; a test checks that every GET operation of the app is in this list. */
export const probedOperations: ReadonlyArray<string> = [
  "listVaults",
  "listVaultsByNetworkType",
  "listSupportedAssets",
  "listAddressAssets",
  "listAssetAddresses",
  "listAssetsByNetworkType",
  "listVaultAssets",
  "listAssetVaults",
  "listVaultTransactions",
  "getVaultTransaction",
  "getTransactionRequest",
  "getTransactionRequestV2",
  "listAddressAssetsAcrossChains",
  "getAddressBalance",
  "listVaultAccounts",
  "getVaultAccount",
  "listVaultAccountAssets",
  "listVaultAccountAddresses",
  "listVaultAccountTransactions",
  "encodeXrpAddress",
  "decodeXrpAddress",
  "listUtxos",
  "getTronResourceOverview",
]

/** A classic XRP address (the genesis account) and its X-address with tag 1 on the test network, for the static probes. */
const XRP_CLASSIC = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"

const probe = (opId: string, template: string, params: Record<string, string>): Probe => ({
  opId,
  path: template.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? "")),
  params,
})

/**
 * The probes for the resources that exist as of `asOf` (all vaults, addresses, held assets and transactions).
 * `includeStatic` adds the catalogue endpoint (#5), which no event changes.
 */
export const readProbes = (models: ReadModels, asOf: AsOf, options: { readonly includeStatic?: boolean } = {}): Array<Probe> => {
  const out: Array<Probe> = [probe("listVaults", "/vaults", {})]
  for (const networkType of ["main", "test"]) {
    out.push(probe("listVaultsByNetworkType", "/vaults/:networkType", { networkType }))
    out.push(probe("listAssetsByNetworkType", "/assets/:networkType", { networkType }))
  }
  if (options.includeStatic) {
    out.push(probe("listSupportedAssets", "/supported-assets", {}))
    out.push(
      probe("encodeXrpAddress", "/utils/xrp/:network/addresses/encode/:classicAddress/:addressTag", {
        network: "testnet",
        classicAddress: XRP_CLASSIC,
        addressTag: "1",
      }),
    )
    out.push(
      probe("decodeXrpAddress", "/utils/xrp/:network/addresses/decode/:xAddress", {
        network: "testnet",
        xAddress: classicAddressToXAddress(XRP_CLASSIC, 1, true),
      }),
    )
  }
  const heldAnywhere = new Set<string>()
  for (const vault of models.workspace.vaultList(asOf)) {
    const vaultId = vault.profile.vaultId
    out.push(probe("listVaultAssets", "/vaults/:vaultId/assets", { vaultId }))
    out.push(probe("listVaultTransactions", "/vaults/:vaultId/transactions", { vaultId }))
    out.push(probe("listVaultAccounts", "/vaults/:vaultId/vault-accounts/details", { vaultId }))
    out.push(probe("listUtxos", "/vaults/:vaultId/utxos", { vaultId }))
    for (const vaultAccountId of [vaultId, ...models.holdings.vaultAccounts(vaultId, asOf).map((a) => a.vaultAccountId)]) {
      const params = { vaultId, vaultAccountId }
      out.push(probe("getVaultAccount", "/vaults/:vaultId/vault-accounts/:vaultAccountId/details", params))
      out.push(probe("listVaultAccountAssets", "/vaults/:vaultId/vault-accounts/:vaultAccountId/list-assets", params))
      out.push(probe("listVaultAccountAddresses", "/vaults/:vaultId/vault-accounts/:vaultAccountId/list-addresses", params))
      out.push(probe("listVaultAccountTransactions", "/vaults/:vaultId/vault-accounts/:vaultAccountId/transactions", params))
    }
    const heldInVault = new Set<string>()
    for (const a of models.holdings.vaultAddresses(vaultId, asOf)) {
      const { blockchain, address } = a.facts
      out.push(probe("listAddressAssets", "/vaults/:vaultId/:blockchain/addresses/:address/assets", { vaultId, blockchain, address }))
      out.push(probe("listAddressAssetsAcrossChains", "/vaults/:vaultId/addresses/:address/assets", { vaultId, address }))
      out.push(probe("getAddressBalance", "/vaults/:vaultId/addresses/:address/balance", { vaultId, address }))
      if (blockchain === "tron")
        out.push({
          ...probe("getTronResourceOverview", "/vaults/:vaultId/:blockchain/:network/:address/overview", {
            vaultId,
            blockchain,
            network: a.facts.network,
            address,
          }),
          apiVersion: "2026-03-20",
        })
      for (const assetId of models.holdings.heldAssets(a, asOf)) heldInVault.add(assetId)
    }
    for (const assetId of [...heldInVault].sort()) {
      heldAnywhere.add(assetId)
      const asset = findAsset(assetId)
      if (asset === undefined) continue
      out.push(
        probe("listAssetAddresses", "/assets/:assetId/vaults/:vaultId/:blockchain/:network/addresses", {
          assetId,
          vaultId,
          blockchain: asset.blockchain,
          network: asset.network,
        }),
      )
    }
    for (const t of models.transactions.list(vaultId, asOf))
      out.push(
        probe("getVaultTransaction", "/vaults/:vaultId/:blockchain/transactions/:transactionId", {
          vaultId,
          blockchain: t.view.blockchain,
          transactionId: t.view.transfer.transactionId,
        }),
      )
  }
  for (const r of models.txRequests.byId.values())
    if (asOf === undefined || r.position <= asOf) {
      const params = { transactionRequestId: r.draft.requestId }
      out.push(probe("getTransactionRequest", "/transactionRequests/:transactionRequestId", params))
      out.push(probe("getTransactionRequestV2", "/transaction-requests/:transactionRequestId", params))
    }
  for (const assetId of [...heldAnywhere].sort()) {
    const asset = findAsset(assetId)
    if (asset !== undefined)
      out.push(
        probe("listAssetVaults", "/assets/:assetId/:blockchain/vaults/:networkType", {
          assetId,
          blockchain: asset.blockchain,
          networkType: asset.networkType,
        }),
      )
  }
  return out
}
