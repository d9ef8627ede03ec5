// Vault decider: creation once; approval policy on an existing vault.
import { absurd, accept, reject, type Decision } from "../shared/decider.js"
import type { VaultCommand } from "./commands.js"
import type { VaultEvent } from "./events.js"
import type { VaultError, VaultState } from "./state.js"

export const decide = (c: VaultCommand, s: VaultState): Decision<VaultEvent, VaultError> => {
  switch (c.type) {
    case "CreateVault":
      return s._tag === "Absent"
        ? accept({ type: "VaultCreated", data: { ...c.profile, at: c.now } })
        : reject({ _tag: "VaultAlreadyExists", vaultId: c.profile.vaultId })
    case "SetApprovalPolicy":
      return s._tag === "Active"
        ? accept({ type: "VaultApprovalPolicySet", data: { vaultId: s.profile.vaultId, mode: c.mode, levels: c.levels, at: c.now } })
        : reject({ _tag: "VaultNotFound" })
    default:
      return absurd(c)
  }
}
