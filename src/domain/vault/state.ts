// Vault state and the errors its decider returns.
import type { VaultId } from "../shared/ids.js"
import type { Ledger } from "../ledger/state.js"
import type { TxRequestState } from "../transaction-request/state.js"
import type { VaultAccounts } from "../vault-account/state.js"
import type { ApprovalMode, VaultProfile } from "./events.js"

export interface ApprovalPolicy {
  readonly mode: ApprovalMode
  readonly levels: 1 | 2
}

export type VaultState =
  | { readonly _tag: "Absent" }
  | {
      readonly _tag: "Active"
      readonly profile: VaultProfile
      readonly policy: ApprovalPolicy
      readonly accounts: VaultAccounts
      readonly ledger: Ledger
      readonly requests: Map<string, TxRequestState>
    }

export type VaultError = { readonly _tag: "VaultAlreadyExists"; readonly vaultId: VaultId } | { readonly _tag: "VaultNotFound" }
