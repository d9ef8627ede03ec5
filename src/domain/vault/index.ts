// The vault aggregate (stream `vault-<vaultId>`): profile and policy, plus its accounts, addresses and assets,
// so that every rule spanning them is checked against one stream revision.
import { absurd, type Decider, type Decision } from "../shared/decider.js"
import type { VaultId } from "../shared/ids.js"
import { decideAccounts, evolveAccounts, vaultAccountEventTypes, type VaultAccountCommand, type VaultAccountError, type VaultAccountEvent } from "../vault-account/index.js"
import { decideLedger, evolveLedger, ledgerEventTypes, type LedgerCommand, type LedgerError, type LedgerEvent } from "../ledger/index.js"
import type { VaultCommand } from "./commands.js"
import { decide as decideProfile } from "./decide.js"
import type { VaultEvent } from "./events.js"
import { evolve as evolveProfile } from "./evolve.js"
import type { VaultError, VaultState } from "./state.js"

export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"

export type VaultAggregateCommand = VaultCommand | VaultAccountCommand | LedgerCommand
export type VaultAggregateEvent = VaultEvent | VaultAccountEvent | LedgerEvent
export type VaultAggregateError = VaultError | VaultAccountError | LedgerError

export const vaultStream = (id: VaultId) => `vault-${id}`

const decide = (c: VaultAggregateCommand, s: VaultState): Decision<VaultAggregateEvent, VaultAggregateError> => {
  switch (c.type) {
    case "CreateVault":
    case "SetApprovalPolicy":
      return decideProfile(c, s)
    case "CreateVaultAccount":
    case "AddAsset":
    case "GenerateAddress":
      return s._tag === "Active"
        ? decideAccounts(c, { vaultId: s.profile.vaultId, type: s.profile.type }, s.accounts)
        : { _tag: "Rejected", error: { _tag: "VaultNotFound" } }
    case "CreditDeposits":
      return s._tag === "Active" ? decideLedger(c, s.accounts, s.ledger) : { _tag: "Rejected", error: { _tag: "VaultNotFound" } }
    default:
      return absurd(c)
  }
}

const evolve = (s: VaultState, e: VaultAggregateEvent): VaultState => {
  if (ledgerEventTypes.has(e.type)) {
    if (s._tag === "Active") evolveLedger(s.ledger, e as LedgerEvent)
    return s
  }
  if (vaultAccountEventTypes.has(e.type)) {
    if (s._tag === "Active") evolveAccounts(s.accounts, e as VaultAccountEvent)
    return s
  }
  return evolveProfile(s, e as VaultEvent)
}

export const vaultDecider: Decider<VaultAggregateCommand, VaultAggregateEvent, VaultState, VaultAggregateError> = {
  initialState: { _tag: "Absent" },
  decide,
  evolve,
  isTerminal: () => false,
}
