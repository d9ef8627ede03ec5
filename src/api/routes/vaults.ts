// Endpoints #1 GET /vaults and #2 GET /vaults/{networkType}: vaults the key may see, from the workspace model.
import type { AsOf } from "../../projections/projection.js"
import type { ApiKeyRecord, VaultRecord } from "../../projections/workspace.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors } from "../errors.js"
import { paginate } from "../pagination.js"
import type { Operation } from "../operation.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import { Schema } from "effect"
import { byVersion, struct } from "../wire/shape.js"
import { NetworkType } from "../wire/common.js"

/** The spec's Vault object (list items of #1 and #2). */
const VaultFields = struct({
  id: Schema.String,
  name: Schema.String,
  type: NetworkType,
  color: Schema.String,
  backuped: Schema.Boolean,
  changeAddressesCount: Schema.Int,
  depositAddressesCount: Schema.Int,
  createdTimestamp: Schema.Int,
})

type VaultValue = ReturnType<typeof vaultJson>

/**
 * The value carries the stored flag (false for a vault created without saying, as 2024-05-09 answers) and
 * `backupStated` when its creator said; from 2025-09-23 on a vault whose creator did not say is backed up.
 */
export const Vault = byVersion(
  { "2024-05-09": VaultFields },
  {
    "2024-05-09": ({ backupStated: _, ...v }: VaultValue) => v,
    "2025-09-23": ({ backupStated, ...v }: VaultValue) => ({ ...v, backuped: backupStated === true ? v.backuped : true }),
  },
)

/**
 * Whether the vault is backed up as the service reports it from 2025-09-23 on: what its creator said, and backed
 * up when it did not say (the service's vault examples show `backuped: true`, and vaults in which accounts are
 * created are backed up). 2024-05-09 keeps its old default of false for a vault created without saying.
 */
export const backedUp = (v: VaultRecord): boolean => (v.profile.backupStated === true || v.profile.backuped ? v.profile.backuped : true)

/** The vault as the control plane and the dashboard show it (`backuped` as the newest version reports it). */
export const vaultView = (v: VaultRecord, asOf: AsOf) => {
  const { backupStated: _, ...value } = vaultJson(v, asOf)
  return { ...value, backuped: backedUp(v) }
}

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
    ...(v.profile.backupStated === true ? { backupStated: true as const } : {}),
  }
}

const visible = (key: ApiKeyRecord, deps: ApiDeps, asOf: AsOf) =>
  deps.sim.models.workspace
    .vaultList(asOf)
    .filter(
      (v) =>
        (key.grant.vaultIds === null || key.grant.vaultIds.includes(v.profile.vaultId)) && key.grant.networkTypes.includes(v.profile.type),
    )

const isNetworkType = (s: string | undefined): s is "main" | "test" => s === "main" || s === "test"

export const vaultOperations: ReadonlyArray<Operation> = [
  {
    id: "listVaults",
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
  },
  {
    id: "listVaultsByNetworkType",
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
  },
]
