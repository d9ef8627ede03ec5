// A vault as the vault endpoints, the control plane and the dashboard show it.
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import type { AsOf } from "../../projections/projection.js"
import type { VaultRecord } from "../../projections/workspace.js"

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
