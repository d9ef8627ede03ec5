// Endpoints #1 GET /vaults and #2 GET /vaults/{networkType}: vaults the key may see, from the workspace model.
import type { ApiKeyRecord, AsOf } from "../reads.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors } from "../errors.js"
import { paginate } from "../inputs/pagination.js"
import { type Operation, operation } from "../operation.js"
import { Vault } from "../wire/vaults.js"
import { vaultJson } from "../presenters/vaults.js"

const visible = (key: ApiKeyRecord, deps: ApiDeps, asOf: AsOf) =>
  deps.reads
    .vaults(asOf)
    .filter(
      (v) =>
        (key.grant.vaultIds === null || key.grant.vaultIds.includes(v.profile.vaultId)) && key.grant.networkTypes.includes(v.profile.type),
    )

const isNetworkType = (s: string | undefined): s is "main" | "test" => s === "main" || s === "test"

export const vaultOperations: ReadonlyArray<Operation> = [
  operation({
    id: "listVaults",
    doc: {
      summary: "List vaults",
      description: "The vaults the API key may see (all of the workspace's unless the key is limited to some), in creation order.",
      tags: ["Vaults"],
    },
    method: "GET",
    path: "/vaults",
    scope: "read",
    paginated: true,
    list: true,
    answer: Vault,
    handle: ({ key, query, asOf }, deps) => {
      const page = paginate(visible(key, deps, asOf), (v) => v.profile.vaultId, query)
      return "code" in page ? page : { status: 200, page: { ...page, items: page.items.map((v) => vaultJson(v, asOf)) } }
    },
  }),
  operation({
    id: "listVaultsByNetworkType",
    doc: {
      summary: "List vaults by network type",
      description: "The vaults of one network type (`main` or `test`) the API key may see.",
      tags: ["Vaults"],
    },
    method: "GET",
    path: "/vaults/:networkType",
    scope: "read",
    // Paged from 2026-03-20 on (the service's vault list answers limit and hasMore there).
    paginated: "2026-03-20",
    list: true,
    answer: Vault,
    networkType: (p) => (isNetworkType(p.networkType) ? p.networkType : undefined),
    handle: ({ key, params, query, asOf, paginated }, deps) => {
      const check = checks.oneOf(["main", "test"])(params.networkType)
      if (check !== undefined) return errors.invalidData([{ attribute: "networkType", message: check }])
      const vaults = visible(key, deps, asOf).filter((v) => v.profile.type === params.networkType)
      if (!paginated) return { status: 200, items: vaults.map((v) => vaultJson(v, asOf)) }
      const page = paginate(vaults, (v) => v.profile.vaultId, query)
      return "code" in page ? page : { status: 200, page: { ...page, items: page.items.map((v) => vaultJson(v, asOf)) } }
    },
  }),
]
