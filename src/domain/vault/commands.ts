// Vault commands.
import type { SimInstant } from "../shared/sim-time.js"
import type { ApprovalMode, VaultProfile } from "./events.js"

export type VaultCommand =
  | { readonly type: "CreateVault"; readonly profile: VaultProfile; readonly now: SimInstant }
  | { readonly type: "SetApprovalPolicy"; readonly mode: ApprovalMode; readonly levels: 1 | 2; readonly now: SimInstant }
