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
      return {
        _tag: "Active",
        profile,
        policy: { mode: "auto", levels: 1 },
        accounts: new VaultAccounts(),
        ledger: new Ledger(),
        requests: new Map(),
      }
    }
    case "VaultApprovalPolicySet":
      if (s._tag !== "Active")
        return s
        // In place, like the rest of the vault's state: the maps are shared with the previous value.
      ;(s as { policy: unknown }).policy = { mode: e.data.mode, levels: e.data.levels }
      return s
    default:
      return absurd(e)
  }
}
