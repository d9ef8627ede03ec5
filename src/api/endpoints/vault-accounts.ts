// Endpoints #3 create vault account, #4 add asset, #5 supported assets.
import { assetsOf, findAsset, isBlockchain } from "../../domain/chains/index.js"
import type { AssetId, VaultAccountId, VaultId } from "../../domain/shared/ids.js"
import { since } from "../../domain/api-key/index.js"
import { addAsset, createVaultAccount } from "../../commands/vault-accounts.js"
import { checks } from "../body.js"
import { errors } from "../errors.js"
import { type Operation, operation } from "../operation.js"
import { runCommand } from "../use-case.js"
import { ApiError, isApiError } from "../errors.js"
import { vaultAccountShape } from "../wire/vault-accounts.js"
import { hasAccount, unknownVault, vaultAt } from "../inputs/parties.js"
import { backedUp } from "../presenters/vaults.js"
import { accountValue, findAccount } from "../presenters/vault-accounts.js"
import { AddedAsset, SupportedAsset } from "../wire/vault-accounts.js"

const networkType = checks.oneOf(["test", "main"])

export const vaultAccountOperations: ReadonlyArray<Operation> = [
  operation({
    id: "createVaultAccount",
    doc: {
      summary: "Create vault account",
      description:
        "Creates an account in the vault and records it in the event log. At 2026-03-20 the simulator refuses it (403) in a vault that is not backed up, as the service was observed to.",
      tags: ["Vault Accounts"],
      refusals: [{ status: 403, code: "vault_as_a_service_vault_recovery_not_initialized" }],
    },
    method: "POST",
    path: "/vaults/:vaultId/vault-account",
    scope: "write",
    vaultParam: "vaultId",
    body: {
      required: { name: checks.string({ min: 1, max: 100 }), color: checks.color(), isHiddenInDashboard: checks.boolean() },
    },
    answer: vaultAccountShape({ index: "string" }),
    handle: async ({ params, item, requestId, apiVersion }, deps) => {
      const vault = vaultAt(deps, params.vaultId, unknownVault(apiVersion))
      if (isApiError(vault)) return vault
      // The service refuses accounts in a vault whose recovery is not set up (observed at 2026-03-20).
      if (apiVersion === "2026-03-20" && !backedUp(vault))
        return new ApiError(
          403,
          "vault_as_a_service_vault_recovery_not_initialized",
          "The vault's recovery is not initialized (it is not backed up); vault accounts cannot be created in it.",
        )
      const r = await runCommand(
        deps,
        createVaultAccount(params.vaultId as VaultId, {
          name: item.name,
          color: item.color,
          isHiddenInDashboard: item.isHiddenInDashboard,
        }),
        { requestId },
      )
      if (isApiError(r)) return r
      return { status: 201, item: accountValue(deps, findAccount(deps, vault, r.vaultAccountId, undefined)!, undefined) }
    },
  }),
  operation({
    id: "addAssetToVaultAccount",
    doc: {
      summary: "Add asset to vault account",
      description:
        "Adds an asset to a vault account: with `label` a new address is derived for it, with `address` the asset is added to one of the account's addresses (exactly one of the two). On UTXO chains an address holds one asset (409 `address_holds_another_asset`).",
      tags: ["Vault Accounts"],
    },
    method: "PUT",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/add-asset",
    scope: "write",
    vaultParam: "vaultId",
    body: {
      required: { assetId: checks.string({ min: 1, max: 64 }) },
      optional: { label: checks.string({ min: 1, max: 100 }), address: checks.string({ min: 1, max: 128 }) },
    },
    answer: AddedAsset,
    handle: async ({ params, item, requestId, apiVersion }, deps) => {
      const target = item.label !== undefined ? { label: item.label } : item.address !== undefined ? { address: item.address } : undefined
      if (target === undefined)
        return new ApiError(409, "missing_required_attributes", 'Exactly one of "label" or "address" is required.', [
          { attribute: "label", message: "is required when address is absent" },
          { attribute: "address", message: "is required when label is absent" },
        ])
      if ("label" in target && item.address !== undefined) return errors.extraBodyAttributes(["address"])
      const vault = vaultAt(deps, params.vaultId, errors.unknownVault(apiVersion))
      if (isApiError(vault)) return vault
      if (!hasAccount(deps, params.vaultId, params.vaultAccountId, undefined)) return errors.resourceNotFound("vault account")
      const asset = findAsset(item.assetId)
      if (asset === undefined) return errors.resourceNotFound("asset")
      const r = await runCommand(
        deps,
        // 2026-03-20 refuses an asset the account already holds; older versions answer its address again.
        addAsset(
          params.vaultId as VaultId,
          params.vaultAccountId as VaultAccountId,
          asset.id as AssetId,
          target,
          since("2026-03-20").includes(apiVersion) ? "refuse" : "accept",
        ),
        { requestId },
      )
      if (isApiError(r)) return r
      return {
        status: 200,
        item: {
          address: r.address.address,
          label: r.address.label,
          assetId: asset.id,
          blockchain: asset.blockchain,
          network: asset.network,
          vaultAccountId: params.vaultAccountId,
        },
      }
    },
  }),
  operation({
    id: "listSupportedAssets",
    doc: {
      summary: "List supported assets",
      description: "The assets of the simulator's catalogue (its chains, their coins and tokens) on a network type.",
      tags: ["Assets"],
    },
    method: "GET",
    path: "/supported-assets",
    scope: "read",
    assetIdKeys: ["id"],
    list: true,
    answer: SupportedAsset,
    query: {
      optional: {
        assetUnit: checks.string({ min: 1, max: 20 }),
        blockchain: checks.string({ min: 1, max: 40 }),
        networkType,
      },
    },
    handle: ({ query }, deps) => {
      const blockchain = query.blockchain
      if (blockchain !== undefined && !isBlockchain(blockchain))
        return errors.invalidData([{ attribute: "blockchain", message: "is not a supported blockchain" }])
      const items = assetsOf({
        ...(blockchain !== undefined ? { blockchain } : {}),
        ...(query.networkType !== undefined ? { networkType: query.networkType } : {}),
      })
        .filter(
          (a) =>
            query.assetUnit === undefined ||
            a.symbol.toLowerCase() === query.assetUnit.toLowerCase() ||
            a.unit.toLowerCase() === query.assetUnit.toLowerCase(),
        )
        .map((a) => ({
          id: a.id,
          symbol: a.symbol,
          name: a.name,
          type: a.type,
          unit: a.unit,
          decimals: a.decimals,
          blockchain: a.blockchain,
          network: a.network,
          networkType: a.networkType,
          ...(a.type === "TOKEN" ? { tokenData: { contractAddress: a.contract, contractType: a.standard } } : {}),
          price: { amount: deps.reads.rate(a.symbol, undefined), unit: "USD" },
        }))
      return { status: 200, items }
    },
  }),
]
