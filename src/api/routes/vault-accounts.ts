// Endpoints #3 create vault account, #4 add asset, #5 supported assets.
import { assetsOf, findAsset, isBlockchain } from "../../domain/chains/index.js"
import type { AssetId, VaultAccountId, VaultId } from "../../domain/shared/ids.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import { addAsset, createVaultAccount } from "../../commands/vault-accounts.js"
import { checks } from "../body.js"
import { errors } from "../errors.js"
import type { Operation } from "../operation.js"
import { runCommand } from "../sim/common.js"
import { ApiError, isApiError } from "../errors.js"

const vaultExists = (deps: Parameters<Operation["handle"]>[1], vaultId: string) => deps.sim.models.workspace.vaultsById.has(vaultId)

export const vaultAccountOperations: ReadonlyArray<Operation> = [
  {
    id: "createVaultAccount",
    method: "POST",
    path: "/vaults/:vaultId/vault-account",
    scope: "write",
    vaultParam: "vaultId",
    body: {
      required: { name: checks.string({ min: 1, max: 100 }), color: checks.color(), isHiddenInDashboard: checks.boolean() },
    },
    handle: async ({ params, item, requestId }, deps) => {
      if (!vaultExists(deps, params.vaultId!)) return errors.resourceNotFound("vault")
      const r = await runCommand(
        deps,
        createVaultAccount(params.vaultId as VaultId, {
          name: item.name as string,
          color: item.color as string,
          isHiddenInDashboard: item.isHiddenInDashboard as boolean,
        }),
        { requestId },
      )
      if (isApiError(r)) return r
      const created = deps.sim.models.holdings.account(r.vaultAccountId, undefined)!
      return {
        status: 201,
        item: {
          vaultAccountId: created.vaultAccountId,
          name: created.name,
          color: created.color,
          isHiddenInDashboard: created.isHiddenInDashboard,
          createdTimestamp: toUnixSeconds(created.createdAt as SimInstant),
        },
      }
    },
  },
  {
    id: "addAssetToVaultAccount",
    method: "PUT",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/add-asset",
    scope: "write",
    vaultParam: "vaultId",
    body: {
      required: { assetId: checks.string({ min: 1, max: 64 }) },
      optional: { label: checks.string({ min: 1, max: 100 }), address: checks.string({ min: 1, max: 128 }) },
    },
    handle: async ({ params, item, requestId }, deps) => {
      const hasLabel = item.label !== undefined
      const hasAddress = item.address !== undefined
      if (!hasLabel && !hasAddress)
        return new ApiError(
          409,
          "missing_required_attributes",
          'Exactly one of "label" or "address" is required.',
          [
            { attribute: "label", message: "is required when address is absent" },
            { attribute: "address", message: "is required when label is absent" },
          ],
        )
      if (hasLabel && hasAddress) return errors.extraBodyAttributes(["address"])
      if (!vaultExists(deps, params.vaultId!)) return errors.resourceNotFound("vault")
      const account = deps.sim.models.holdings.account(params.vaultAccountId!, undefined)
      if (account === undefined || account.vaultId !== params.vaultId) return errors.resourceNotFound("vault account")
      const asset = findAsset(item.assetId as string)
      if (asset === undefined) return errors.resourceNotFound("asset")
      const target = hasLabel ? { label: item.label as string } : { address: item.address as string }
      const r = await runCommand(
        deps,
        addAsset(params.vaultId as VaultId, params.vaultAccountId as VaultAccountId, asset.id as AssetId, target),
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
  },
  {
    id: "listSupportedAssets",
    method: "GET",
    path: "/supported-assets",
    scope: "read",
    query: {
      optional: {
        assetUnit: checks.string({ min: 1, max: 20 }),
        blockchain: checks.string({ min: 1, max: 40 }),
        networkType: checks.oneOf(["test", "main"]),
      },
    },
    handle: ({ query }) => {
      if (query.blockchain !== undefined && !isBlockchain(query.blockchain))
        return errors.invalidData([{ attribute: "blockchain", message: "is not a supported blockchain" }])
      const items = assetsOf({
        ...(query.blockchain !== undefined ? { blockchain: query.blockchain as never } : {}),
        ...(query.networkType !== undefined ? { networkType: query.networkType as "main" | "test" } : {}),
      })
        .filter((a) => query.assetUnit === undefined || a.symbol.toLowerCase() === query.assetUnit.toLowerCase() || a.unit.toLowerCase() === query.assetUnit.toLowerCase())
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
        }))
      return { status: 200, data: { items } }
    },
  },
]
