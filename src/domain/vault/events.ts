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
}

export type VaultEvent =
  | { readonly type: "VaultCreated"; readonly data: VaultProfile & { readonly at: SimInstant } }
  | {
      readonly type: "VaultApprovalPolicySet"
      readonly data: { readonly vaultId: VaultId; readonly mode: ApprovalMode; readonly levels: 1 | 2; readonly at: SimInstant }
    }
