// Endpoints #10 assets by network type, #11 assets of a vault, #12 vaults holding an asset.
import { findAsset } from "../../domain/chains/index.js"
import type { ApiKeyRecord, AsOf, Balance } from "../reads.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import { vaultAt } from "../inputs/parties.js"
import { type Operation, operation } from "../operation.js"
import { paginate } from "../inputs/pagination.js"
import { assetsOf, VaultAssetEntry } from "../wire/assets.js"
import { amounts, sumAll } from "../presenters/balances.js"
import { vaultAssetEntry } from "../presenters/assets.js"
import { AssetBalance, AssetVaults } from "../wire/assets.js"

/** Per asset, the sum of its balances over a vault's addresses. */
const vaultHoldings = (deps: ApiDeps, vaultId: string, asOf: AsOf): Map<string, Balance> => {
  const h = deps.reads
  const perAsset = new Map<string, Array<Balance>>()
  for (const a of h.vaultAddresses(vaultId, asOf))
    for (const assetId of h.heldAssets(a, asOf)) {
      const list = perAsset.get(assetId) ?? []
      list.push(h.balance(a.facts.blockchain, a.facts.network, a.facts.address, assetId, asOf))
      perAsset.set(assetId, list)
    }
  return new Map([...perAsset].map(([id, bs]) => [id, sumAll(bs)]))
}

const keyVaults = (key: ApiKeyRecord, deps: ApiDeps, networkType: "main" | "test", asOf: AsOf) =>
  deps.reads
    .vaults(asOf)
    .filter((v) => v.profile.type === networkType && (key.grant.vaultIds === null || key.grant.vaultIds.includes(v.profile.vaultId)))

const parseNetworkType = (s: string | undefined): "main" | "test" | undefined => {
  const t = s?.toLowerCase()
  return t === "main" || t === "test" ? t : undefined
}

const badNetworkType = () => errors.invalidData([{ attribute: "networkType", message: "must be main or test (either letter case)" }])

export const assetOperations: ReadonlyArray<Operation> = [
  operation({
    id: "listAssetsByNetworkType",
    doc: {
      summary: "List assets by network type",
      description: "Balances per asset over the vaults of a network type the key may see, paged.",
      tags: ["Assets"],
    },
    method: "GET",
    path: "/assets/:networkType",
    scope: "read",
    assetIdKeys: ["id", "startingAfter"],
    paginated: true,
    list: true,
    answer: AssetBalance,
    networkType: (p) => parseNetworkType(p.networkType),
    handle: ({ params, query, key, asOf }, deps) => {
      const networkType = parseNetworkType(params.networkType)
      if (networkType === undefined) return badNetworkType()
      const totals = new Map<string, Array<Balance>>()
      for (const v of keyVaults(key, deps, networkType, asOf))
        for (const [assetId, b] of vaultHoldings(deps, v.profile.vaultId, asOf)) totals.set(assetId, [...(totals.get(assetId) ?? []), b])
      const rows = [...totals]
        .flatMap(([id, bs]) => {
          const asset = findAsset(id)
          return asset === undefined ? [] : [{ asset, balance: sumAll(bs) }]
        })
        .sort((a, b) => (a.asset.id < b.asset.id ? -1 : a.asset.id > b.asset.id ? 1 : 0))
      const page = paginate(rows, (r) => r.asset.id, query)
      if ("code" in page) return page
      return {
        status: 200,
        page: {
          ...page,
          items: page.items.map(({ asset, balance }) => {
            const { allocatedAmount, ...rest } = amounts(balance, asset.decimals)
            return {
              id: asset.id,
              symbol: asset.symbol,
              type: asset.type,
              blockchain: asset.blockchain,
              ...rest,
              allocatedAmaunt: allocatedAmount,
              exchangeRate: deps.reads.rate(asset.symbol, asOf),
              ...(asset.type === "TOKEN" ? { tokenData: { contractAddress: asset.contract, contractType: asset.standard } } : {}),
            }
          }),
        },
      }
    },
  }),
  operation({
    id: "listVaultAssets",
    doc: {
      summary: "List vault assets",
      description: "The assets and balances of a vault: total, available, blocked (held by open requests) and allocated.",
      tags: ["Assets"],
    },
    method: "GET",
    path: "/vaults/:vaultId/assets",
    scope: "read",
    answer: assetsOf(VaultAssetEntry),
    vaultParam: "vaultId",
    handle: ({ params, asOf, apiVersion }, deps) => {
      const vault = vaultAt(deps, params.vaultId, errors.unknownVault(apiVersion), asOf)
      if (isApiError(vault)) return vault
      const assets = [...vaultHoldings(deps, params.vaultId, asOf)].flatMap(([id, b]) => {
        const asset = findAsset(id)
        return asset === undefined ? [] : [vaultAssetEntry(deps, asset, b, asOf)]
      })
      return { status: 200, item: { assets } }
    },
  }),
  operation({
    id: "listAssetVaults",
    doc: {
      summary: "List vaults holding an asset",
      description: "The vaults of a network type holding an asset on a chain, with their balances.",
      tags: ["Assets"],
    },
    method: "GET",
    path: "/assets/:assetId/:blockchain/vaults/:networkType",
    scope: "read",
    answer: AssetVaults,
    networkType: (p) => parseNetworkType(p.networkType),
    handle: ({ params, key, asOf }, deps) => {
      const networkType = parseNetworkType(params.networkType)
      if (networkType === undefined) return badNetworkType()
      const asset = findAsset(params.assetId)
      if (asset === undefined || asset.blockchain !== params.blockchain) return errors.resourceNotFound("asset")
      const vaults =
        asset.networkType !== networkType
          ? []
          : keyVaults(key, deps, networkType, asOf).flatMap((v) => {
              const b = vaultHoldings(deps, v.profile.vaultId, asOf).get(asset.id)
              return b === undefined
                ? []
                : [
                    {
                      vaultId: v.profile.vaultId,
                      vaultName: v.profile.name,
                      vaultColor: v.profile.color,
                      vaultType: "general",
                      ...amounts(b, asset.decimals),
                    },
                  ]
            })
      return { status: 200, item: { exchangeRate: deps.reads.rate(asset.symbol, asOf), vaults } }
    },
  }),
]
