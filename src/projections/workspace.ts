// Workspace read model: vaults (endpoints #1, #2) with counters over time, and API keys for authentication.
import type { ApiKeyEvent, ApiKeyGrant } from "../domain/api-key/index.js"
import type { VaultId } from "../domain/shared/ids.js"
import type { ApprovalPolicy } from "../domain/vault/index.js"
import type { VaultEvent, VaultProfile } from "../domain/vault/index.js"
import type { StoredOf } from "../events/stored-event.js"
import { CreationOrder, History } from "./storage/history.js"
import type { AsOf } from "./projection.js"

export interface VaultCounters {
  readonly depositAddressesCount: number
  readonly changeAddressesCount: number
}

export interface VaultRecord {
  readonly profile: VaultProfile
  readonly createdAt: number
  readonly counters: History<VaultCounters>
  readonly policy: History<ApprovalPolicy>
}

export interface ApiKeyRecord {
  readonly grant: ApiKeyGrant
  readonly secretBytes: Buffer
  revoked: boolean
  /** Where the key was created and revoked in the log (the dashboard shows keys as of a position). */
  readonly position: bigint
  revokedPosition: bigint | undefined
}

export const workspaceFoldTypes = [
  "VaultCreated",
  "VaultApprovalPolicySet",
  "ApiKeyCreated",
  "ApiKeyRevoked",
] as const satisfies ReadonlyArray<(VaultEvent | ApiKeyEvent)["type"]>

export class WorkspaceModel {
  readonly vaults = new CreationOrder<VaultRecord>()
  readonly vaultsById = new Map<string, VaultRecord>()
  readonly apiKeys = new Map<string, ApiKeyRecord>()

  vault(id: string, asOf: AsOf): VaultRecord | undefined {
    const v = this.vaultsById.get(id)
    return v !== undefined && v.counters.at(asOf) !== undefined ? v : undefined
  }

  vaultList(asOf: AsOf): ReadonlyArray<VaultRecord> {
    return this.vaults.upTo(asOf)
  }

  /** Called by the address projections when a deposit or change address is added to a vault. */
  countAddress(vaultId: VaultId, kind: "deposit" | "change", position: bigint): void {
    const v = this.vaultsById.get(vaultId)
    const c = v?.counters.latest()
    if (v === undefined || c === undefined) return
    v.counters.set(
      position,
      kind === "deposit"
        ? { ...c, depositAddressesCount: c.depositAddressesCount + 1 }
        : { ...c, changeAddressesCount: c.changeAddressesCount + 1 },
    )
  }

  apply(event: StoredOf<(typeof workspaceFoldTypes)[number]>): void {
    switch (event.type) {
      case "VaultCreated": {
        const { at, ...profile } = event.data
        if (this.vaultsById.has(profile.vaultId)) return
        const counters = new History<VaultCounters>()
        counters.set(event.position, { depositAddressesCount: 0, changeAddressesCount: 0 })
        const policy = new History<ApprovalPolicy>()
        policy.set(event.position, { mode: "auto", levels: 1 })
        const record: VaultRecord = { profile, createdAt: at, counters, policy }
        this.vaults.push(event.position, record)
        this.vaultsById.set(profile.vaultId, record)
        return
      }
      case "VaultApprovalPolicySet":
        this.vaultsById.get(event.data.vaultId)?.policy.set(event.position, { mode: event.data.mode, levels: event.data.levels })
        return
      case "ApiKeyCreated": {
        const { at: _at, ...grant } = event.data
        this.apiKeys.set(grant.key, {
          grant,
          secretBytes: Buffer.from(grant.secret, "base64"),
          revoked: false,
          position: event.position,
          revokedPosition: undefined,
        })
        return
      }
      case "ApiKeyRevoked": {
        const k = this.apiKeys.get(event.data.key)
        if (k !== undefined && !k.revoked) {
          k.revoked = true
          k.revokedPosition = event.position
        }
        return
      }
      default:
        return
    }
  }
}
