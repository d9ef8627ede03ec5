// Endpoints #6 generate deposit address, #7 validate address, #8 assets of an address, #9 addresses of an asset.
import { findAsset, findNetwork, networksOf, validateAddress, type Blockchain, type NetworkName } from "../../domain/chains/index.js"
import type { VaultAccountId, VaultId } from "../../domain/shared/ids.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import { generateAddress } from "../../commands/vault-accounts.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import type { Operation } from "../operation.js"
import { runCommand } from "../sim/common.js"
import { amounts, tokenFields } from "./presenters.js"

export const networkTypeOf = (p: Readonly<Record<string, string>>) => findNetwork(p.blockchain ?? "", p.network ?? "")?.networkType

const unknownNetwork = () =>
  errors.invalidData([
    { attribute: "blockchain", message: "with network must name a supported blockchain and network" },
    { attribute: "network", message: "is not a network of this blockchain" },
  ])

/** #8 has no network in its path: it follows the vault (a test vault uses the blockchain's test network). */
const networkForVault = (deps: ApiDeps, vaultId: string, blockchain: string) => {
  const type = deps.sim.models.workspace.vaultsById.get(vaultId)?.profile.type
  return type === undefined ? undefined : networksOf(type).find((n) => n.blockchain === blockchain)
}

export const addressOperations: ReadonlyArray<Operation> = [
  {
    id: "generateDepositAddress",
    method: "POST",
    path: "/vaults/:vaultId/:blockchain/:network/addresses",
    scope: "write",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    body: { required: { label: checks.string({ min: 1, max: 100 }) }, optional: { vaultAccountId: checks.string({ min: 1, max: 64 }) } },
    handle: async ({ params, item, requestId }, deps) => {
      const network = findNetwork(params.blockchain!, params.network!)
      if (network === undefined) return unknownNetwork()
      if (!deps.sim.models.workspace.vaultsById.has(params.vaultId!)) return errors.resourceNotFound("vault")
      const accountId = item.vaultAccountId as string | undefined
      if (accountId !== undefined && deps.sim.models.holdings.account(accountId, undefined)?.vaultId !== params.vaultId)
        return errors.resourceNotFound("vault account")
      const r = await runCommand(
        deps,
        generateAddress(params.vaultId as VaultId, network, item.label as string, (accountId ?? null) as VaultAccountId | null),
        { requestId },
      )
      if (isApiError(r)) return r
      return { status: 201, item: { address: r.address.address, createdTimestamp: String(toUnixSeconds(r.address.at as SimInstant)), label: r.address.label } }
    },
  },
  {
    id: "validateAddress",
    method: "POST",
    path: "/info/:blockchain/:network/addresses/validate",
    scope: "read",
    networkType: networkTypeOf,
    body: { required: { address: checks.string({ max: 200 }) } },
    handle: ({ params, item }) => {
      if (findNetwork(params.blockchain!, params.network!) === undefined) return unknownNetwork()
      const address = item.address as string
      return { status: 200, item: { address, isValid: validateAddress(params.blockchain as Blockchain, params.network as NetworkName, address) } }
    },
  },
  {
    id: "listAddressAssets",
    method: "GET",
    path: "/vaults/:vaultId/:blockchain/addresses/:address/assets",
    scope: "read",
    vaultParam: "vaultId",
    handle: ({ params, asOf }, deps) => {
      const vault = deps.sim.models.workspace.vault(params.vaultId!, asOf)
      if (vault === undefined) return errors.resourceNotFound("vault")
      const network = networkForVault(deps, params.vaultId!, params.blockchain!)
      if (network === undefined) return errors.invalidData([{ attribute: "blockchain", message: "is not a supported blockchain for this vault" }])
      const h = deps.sim.models.holdings
      const a = h.address(network.blockchain, network.network, params.address!, asOf)
      if (a === undefined || a.facts.vaultId !== params.vaultId) return errors.resourceNotFound("address")
      const assets = h.heldAssets(a, asOf).flatMap((id) => {
        const asset = findAsset(id)
        if (asset === undefined) return []
        const b = h.balance(network.blockchain, network.network, a.facts.address, id, asOf)
        return [
          {
            assetData: { ...amounts(b, asset.decimals), ...tokenFields(asset) },
            exchangeRate: deps.sim.models.settings.rateOf(asset.symbol, asOf),
            symbol: asset.symbol,
            type: asset.type,
          },
        ]
      })
      return { status: 200, item: { assets } }
    },
  },
  {
    id: "listAssetAddresses",
    method: "GET",
    path: "/assets/:assetId/vaults/:vaultId/:blockchain/:network/addresses",
    scope: "read",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    handle: ({ params, asOf }, deps) => {
      if (findNetwork(params.blockchain!, params.network!) === undefined) return unknownNetwork()
      if (deps.sim.models.workspace.vault(params.vaultId!, asOf) === undefined) return errors.resourceNotFound("vault")
      const asset = findAsset(params.assetId!)
      if (asset === undefined || asset.blockchain !== params.blockchain || asset.network !== params.network) return errors.resourceNotFound("asset")
      const h = deps.sim.models.holdings
      const addresses = h
        .vaultAddresses(params.vaultId!, asOf)
        .filter((a) => a.facts.blockchain === asset.blockchain && a.facts.network === asset.network && h.heldAssets(a, asOf).includes(asset.id))
        .map((a) => ({
          address: a.facts.address,
          addressType: a.facts.addressType,
          label: a.facts.label,
          ...amounts(h.balance(asset.blockchain, asset.network, a.facts.address, asset.id, asOf), asset.decimals),
        }))
      return { status: 200, item: { addresses, exchangeRate: deps.sim.models.settings.rateOf(asset.symbol, asOf) } }
    },
  },
]
