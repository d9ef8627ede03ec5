// Vault events: vaults are created by the dashboard (here: the control plane or a fixture).
import type { VaultId } from "../shared/ids.js"
import type { SimInstant } from "../shared/sim-time.js"

export type VaultType = "main" | "test"
export type ApprovalMode = "auto" | "manual"

export interface VaultProfile {
  readonly vaultId: VaultId
  readonly name: string
  readonly type: VaultType
  readonly color: string
  readonly backuped: boolean
  /**
   * Set when the vault's creator said `backuped`. Without it `backuped` is the old default (false): 2024-05-09 still
   * reports that, later versions report a backed-up vault, as the service's vault examples show.
   */
  readonly backupStated?: true
}

export type VaultEvent =
  | { readonly type: "VaultCreated"; readonly data: VaultProfile & { readonly at: SimInstant } }
  | {
      readonly type: "VaultApprovalPolicySet"
      readonly data: { readonly vaultId: VaultId; readonly mode: ApprovalMode; readonly levels: 1 | 2; readonly at: SimInstant }
    }
