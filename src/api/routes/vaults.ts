// Endpoints #1 GET /vaults and #2 GET /vaults/{networkType}: vaults the key may see, from the workspace model.
import type { AsOf } from "../../projections/projection.js"
import type { ApiKeyRecord, VaultRecord } from "../../projections/workspace.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors } from "../errors.js"
import { paginate } from "../pagination.js"
import type { Operation } from "../operation.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"

export const vaultJson = (v: VaultRecord, asOf: AsOf) => {
  const counters = v.counters.at(asOf) ?? { depositAddressesCount: 0, changeAddressesCount: 0 }
  return {
    id: v.profile.vaultId,
    name: v.profile.name,
    type: v.profile.type,
    color: v.profile.color,
    backuped: v.profile.backuped,
    changeAddressesCount: counters.changeAddressesCount,
    depositAddressesCount: counters.depositAddressesCount,
    createdTimestamp: toUnixSeconds(v.createdAt as SimInstant),
  }
}

const visible = (key: ApiKeyRecord, deps: ApiDeps, asOf: AsOf) =>
  deps.sim.models.workspace
    .vaultList(asOf)
    .filter((v) => (key.grant.vaultIds === null || key.grant.vaultIds.includes(v.profile.vaultId)) && key.grant.networkTypes.includes(v.profile.type))

const isNetworkType = (s: string | undefined): s is "main" | "test" => s === "main" || s === "test"

export const vaultOperations: ReadonlyArray<Operation> = [
  {
    id: "listVaults",
    method: "GET",
    path: "/vaults",
    scope: "read",
    paginated: true,
    handle: ({ key, query, asOf }, deps) => {
      const page = paginate(visible(key, deps, asOf), (v) => v.profile.vaultId, query)
      return "code" in page ? page : { status: 200, page: { ...page, items: page.items.map((v) => vaultJson(v, asOf)) } }
    },
  },
  {
    id: "listVaultsByNetworkType",
    method: "GET",
    path: "/vaults/:networkType",
    scope: "read",
    networkType: (p) => (isNetworkType(p.networkType) ? p.networkType : undefined),
    handle: ({ key, params, asOf }, deps) => {
      const check = checks.oneOf(["main", "test"])(params.networkType)
      if (check !== undefined) return errors.invalidData([{ attribute: "networkType", message: check }])
      const items = visible(key, deps, asOf)
        .filter((v) => v.profile.type === params.networkType)
        .map((v) => vaultJson(v, asOf))
      return { status: 200, data: { items } }
    },
  },
]
