// Vault evolve: total and quiet.
import { absurd } from "../shared/decider.js"
import { Ledger } from "../ledger/state.js"
import { VaultAccounts } from "../vault-account/state.js"
import type { VaultEvent } from "./events.js"
import type { VaultState } from "./state.js"

export const evolve = (s: VaultState, e: VaultEvent): VaultState => {
  switch (e.type) {
    case "VaultCreated": {
      if (s._tag !== "Absent") return s
      const { at: _at, ...profile } = e.data
      return { _tag: "Active", profile, policy: { mode: "auto", levels: 1 }, accounts: new VaultAccounts(), ledger: new Ledger() }
    }
    case "VaultApprovalPolicySet":
      return s._tag === "Active" ? { ...s, policy: { mode: e.data.mode, levels: e.data.levels } } : s
    default:
      return absurd(e)
  }
}
