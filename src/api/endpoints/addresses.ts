// Endpoints #6 generate deposit address, #7 validate address, #8 assets of an address, #9 addresses of an asset.
import { findAsset, findNetwork, validateAddress, type Blockchain, type NetworkName } from "../../domain/chains/index.js"
import { since, until, type ApiVersion } from "../../domain/api-key/index.js"
import type { VaultAccountId, VaultId } from "../../domain/shared/ids.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import { generateAddress } from "../../commands/vault-accounts.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import { type Operation, operation } from "../operation.js"
import { runCommand } from "../use-case.js"
import type { AddressView, AsOf } from "../reads.js"
import { isBlockchain } from "../../domain/chains/index.js"
import { paginate } from "../inputs/pagination.js"
import { AddressAssetEntry, assetsOf, VaultAssetEntry } from "../wire/assets.js"
import { accountIdOf } from "../../domain/vault-account/index.js"
import { addressesOfVault, addressIn, hasAccount, vaultAt, vaultNetworkOn } from "../inputs/parties.js"
import { amounts, tokenFields } from "../presenters/balances.js"
import { vaultAssetEntry } from "../presenters/assets.js"
import { networkTypeOf } from "../inputs/network.js"
import { GeneratedAddress, Validation, AssetAddresses } from "../wire/addresses.js"

/** Per asset held by the address (on each chain it is on), its entry in the cross-chain shape. */
const addressEntries = (deps: ApiDeps, held: ReadonlyArray<AddressView>, asOf: AsOf, assetUnit: string | undefined) => {
  const h = deps.reads
  return held.flatMap((a) =>
    h.heldAssets(a, asOf).flatMap((id) => {
      const asset = findAsset(id)
      if (asset === undefined || (assetUnit !== undefined && asset.symbol.toLowerCase() !== assetUnit.toLowerCase())) return []
      return [vaultAssetEntry(deps, asset, h.balance(a.facts.blockchain, a.facts.network, a.facts.address, id, asOf), asOf)]
    }),
  )
}

/** The address's assets in the vault, on the `blockchain` of the query or on every chain it is on. */
const entriesOfAddress = (
  deps: ApiDeps,
  params: { readonly vaultId: string; readonly address: string },
  query: { readonly blockchain?: string | undefined; readonly assetUnit?: string | undefined },
  asOf: AsOf,
  version: ApiVersion,
) => {
  if (query.blockchain !== undefined && !isBlockchain(query.blockchain))
    return errors.invalidData([{ attribute: "blockchain", message: "is not a supported blockchain" }])
  const vault = vaultAt(deps, params.vaultId, errors.unknownVault(version), asOf)
  if (isApiError(vault)) return vault
  const held = addressesOfVault(deps, vault, params.address, query.blockchain, asOf)
  if (held.length === 0) return errors.resourceNotFound("address")
  return addressEntries(deps, held, asOf, query.assetUnit)
}

const unknownNetwork = () =>
  errors.invalidData([
    { attribute: "blockchain", message: "with network must name a supported blockchain and network" },
    { attribute: "network", message: "is not a network of this blockchain" },
  ])

export const addressOperations: ReadonlyArray<Operation> = [
  operation({
    id: "generateDepositAddress",
    doc: {
      summary: "Generate deposit address",
      description:
        "Derives the vault's next address on the chain (deterministically from the workspace's seed) with its label; deposits to it are credited as the simulated chain mines them (`/_sim/deposits`).",
      tags: ["Addresses"],
    },
    method: "POST",
    path: "/vaults/:vaultId/:blockchain/:network/addresses",
    scope: "write",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    answer: GeneratedAddress,
    body: { required: { label: checks.string({ min: 1, max: 100 }) }, optional: { vaultAccountId: checks.string({ min: 1, max: 64 }) } },
    bodySince: {
      "2026-03-20": { required: { label: checks.string({ min: 1, max: 100 }), vaultAccountId: checks.string({ min: 1, max: 64 }) } },
    },
    handle: async ({ params, item, requestId, apiVersion }, deps) => {
      const network = findNetwork(params.blockchain, params.network)
      if (network === undefined) return unknownNetwork()
      const vault = vaultAt(deps, params.vaultId, errors.unknownVault(apiVersion))
      if (isApiError(vault)) return vault
      // The vault's default account (its id is the vault's) holds the vault's own addresses.
      const accountId = item.vaultAccountId
      if (accountId !== undefined && !hasAccount(deps, params.vaultId, accountId, undefined))
        return errors.resourceNotFound("vault account")
      const r = await runCommand(
        deps,
        generateAddress(params.vaultId as VaultId, network, item.label, (accountId ?? null) as VaultAccountId | null),
        { requestId },
      )
      if (isApiError(r)) return r
      const a = r.address
      return {
        status: 201,
        item: {
          address: a.address,
          createdTimestamp: String(toUnixSeconds(a.at as SimInstant)),
          label: a.label,
          vaultAccountId: accountIdOf(a),
        },
      }
    },
  }),
  operation({
    id: "validateAddress",
    doc: {
      summary: "Validate address",
      description: "Whether an address is well formed on the chain and network (checksums included); writes nothing.",
      tags: ["Addresses"],
    },
    method: "POST",
    path: "/info/:blockchain/:network/addresses/validate",
    scope: "read",
    networkType: networkTypeOf,
    created: false,
    answer: Validation,
    body: { required: { address: checks.string({ max: 200 }) } },
    handle: ({ params, item }) => {
      if (findNetwork(params.blockchain, params.network) === undefined) return unknownNetwork()
      const address = item.address
      return {
        status: 200,
        item: { address, isValid: validateAddress(params.blockchain as Blockchain, params.network as NetworkName, address) },
      }
    },
  }),
  operation({
    id: "listAddressAssets",
    doc: {
      summary: "List assets of an address",
      description: "The assets and balances of one of the vault's addresses on a chain.",
      tags: ["Addresses"],
    },
    method: "GET",
    path: "/vaults/:vaultId/:blockchain/addresses/:address/assets",
    scope: "read",
    vaultParam: "vaultId",
    // 2025-09-23 moved it to /vaults/{vaultId}/addresses/{address}/assets?blockchain=.
    versions: until("2025-09-23"),
    answer: assetsOf(AddressAssetEntry),
    handle: ({ params, asOf }, deps) => {
      const vault = vaultAt(deps, params.vaultId, errors.resourceNotFound("vault"), asOf)
      if (isApiError(vault)) return vault
      // #8 has no network in its path: it follows the vault's.
      const network = vaultNetworkOn(vault, params.blockchain)
      if (network === undefined)
        return errors.invalidData([{ attribute: "blockchain", message: "is not a supported blockchain for this vault" }])
      const h = deps.reads
      const a = addressIn(deps, params.vaultId, network, params.address, asOf)
      if (a === undefined) return errors.resourceNotFound("address")
      const assets = h.heldAssets(a, asOf).flatMap((id) => {
        const asset = findAsset(id)
        if (asset === undefined) return []
        const b = h.balance(network.blockchain, network.network, a.facts.address, id, asOf)
        return [
          {
            assetData: { ...amounts(b, asset.decimals), ...tokenFields(asset) },
            exchangeRate: deps.reads.rate(asset.symbol, asOf),
            symbol: asset.symbol,
            type: asset.type,
          },
        ]
      })
      return { status: 200, item: { assets } }
    },
  }),
  operation({
    id: "listAssetAddresses",
    doc: {
      summary: "List addresses holding an asset",
      description: "The vault's addresses holding an asset on a chain and network, with their balances.",
      tags: ["Addresses"],
    },
    method: "GET",
    path: "/assets/:assetId/vaults/:vaultId/:blockchain/:network/addresses",
    scope: "read",
    vaultParam: "vaultId",
    // 2026-03-20 lists addresses per vault account instead (list-addresses).
    versions: until("2026-03-20"),
    answer: AssetAddresses,
    networkType: networkTypeOf,
    handle: ({ params, asOf }, deps) => {
      if (findNetwork(params.blockchain, params.network) === undefined) return unknownNetwork()
      const vault = vaultAt(deps, params.vaultId, errors.resourceNotFound("vault"), asOf)
      if (isApiError(vault)) return vault
      const asset = findAsset(params.assetId)
      if (asset === undefined || asset.blockchain !== params.blockchain || asset.network !== params.network)
        return errors.resourceNotFound("asset")
      const h = deps.reads
      const addresses = h
        .vaultAddresses(params.vaultId, asOf)
        .filter(
          (a) => a.facts.blockchain === asset.blockchain && a.facts.network === asset.network && h.heldAssets(a, asOf).includes(asset.id),
        )
        .map((a) => ({
          address: a.facts.address,
          addressType: a.facts.addressType,
          label: a.facts.label,
          ...amounts(h.balance(asset.blockchain, asset.network, a.facts.address, asset.id, asOf), asset.decimals),
        }))
      return { status: 200, item: { addresses, exchangeRate: deps.reads.rate(asset.symbol, asOf) } }
    },
  }),
  operation({
    id: "listAddressAssetsAcrossChains",
    doc: {
      summary: "List assets of an address across chains",
      description: "The assets and balances of one of the vault's addresses, on every chain it is used on (`blockchain` narrows it).",
      tags: ["Addresses"],
    },
    method: "GET",
    path: "/vaults/:vaultId/addresses/:address/assets",
    scope: "read",
    vaultParam: "vaultId",
    versions: since("2025-09-23"),
    query: { optional: { blockchain: checks.string({ min: 1, max: 40 }) } },
    answer: assetsOf(VaultAssetEntry),
    handle: ({ params, query, asOf, apiVersion }, deps) => {
      const entries = entriesOfAddress(deps, params, query, asOf, apiVersion)
      return isApiError(entries) ? entries : { status: 200, item: { assets: entries } }
    },
  }),
  operation({
    id: "getAddressBalance",
    doc: {
      summary: "Get address balance",
      description: "An address's assets and balances, paged.",
      tags: ["Addresses"],
    },
    method: "GET",
    path: "/vaults/:vaultId/addresses/:address/balance",
    scope: "read",
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    paginated: true,
    list: true,
    query: { optional: { blockchain: checks.string({ min: 1, max: 40 }), assetUnit: checks.string({ min: 1, max: 20 }) } },
    answer: VaultAssetEntry,
    handle: ({ params, query, asOf, apiVersion }, deps) => {
      const entries = entriesOfAddress(deps, params, query, asOf, apiVersion)
      if (isApiError(entries)) return entries
      const page = paginate(entries, (e) => e.assetId, query)
      return "code" in page ? page : { status: 200, page }
    },
  }),
]
