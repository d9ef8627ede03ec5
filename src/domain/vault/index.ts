// The vault aggregate (stream `vault-<vaultId>`): profile and policy, plus its accounts, addresses and assets,
// so that every rule spanning them is checked against one stream revision.
import { absurd, type Decider, type Decision } from "../shared/decider.js"
import type { VaultId } from "../shared/ids.js"
import {
  decideAccounts,
  evolveAccounts,
  vaultAccountEventTypes,
  type VaultAccountCommand,
  type VaultAccountError,
  type VaultAccountEvent,
} from "../vault-account/index.js"
import {
  decideTxRequest,
  evolveTxRequest,
  txRequestEventTypes,
  type TxRequestCommand,
  type TxRequestError,
  type TxRequestEvent,
} from "../transaction-request/index.js"
import { notificationsFor } from "../transaction-request/notifications.js"
import {
  applyEffects,
  decideLedger,
  evolveLedger,
  ledgerEventTypes,
  type LedgerCommand,
  type LedgerError,
  type LedgerEvent,
} from "../ledger/index.js"
import type { VaultCommand } from "./commands.js"
import { decide as decideProfile } from "./decide.js"
import type { VaultEvent } from "./events.js"
import { evolve as evolveProfile } from "./evolve.js"
import type { VaultError, VaultState } from "./state.js"

export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"

export type VaultAggregateCommand = VaultCommand | VaultAccountCommand | LedgerCommand | TxRequestCommand
export type VaultAggregateEvent = VaultEvent | VaultAccountEvent | LedgerEvent | TxRequestEvent
export type VaultAggregateError = VaultError | VaultAccountError | LedgerError | TxRequestError

export const vaultStream = (id: VaultId) => `vault-${id}`

const decide = (c: VaultAggregateCommand, s: VaultState): Decision<VaultAggregateEvent, VaultAggregateError> => {
  switch (c.type) {
    case "CreateVault":
    case "SetApprovalPolicy":
      return decideProfile(c, s)
    case "CreateVaultAccount":
    case "AddAsset":
    case "EditVaultAccount":
    case "GenerateAddress":
      return s._tag === "Active"
        ? decideAccounts(c, { vaultId: s.profile.vaultId, type: s.profile.type, color: s.profile.color }, s.accounts)
        : { _tag: "Rejected", error: { _tag: "VaultNotFound" } }
    case "CreateTxRequest":
    case "CreateUtxoTransfer":
    case "CreateMultipleTransfer":
    case "ApproveTxRequest":
    case "RejectTxRequest":
    case "FailTxRequest":
    case "RecordTxMined":
    case "RecordTxSucceeded": {
      if (s._tag !== "Active") return { _tag: "Rejected", error: { _tag: "VaultNotFound" } }
      const d = decideTxRequest(c, {
        vaultId: s.profile.vaultId,
        policy: s.policy,
        accounts: s.accounts,
        ledger: s.ledger,
        requests: s.requests,
      })
      if (d._tag === "Rejected") return d
      // A UTXO request's change goes to a new change address of the vault, registered before the request.
      const change: Array<VaultAggregateEvent> =
        c.type === "CreateTxRequest" && c.changeAddress !== undefined
          ? [c.changeAddress]
          : (c.type === "CreateUtxoTransfer" || c.type === "CreateMultipleTransfer") &&
              c.changeAddress !== undefined &&
              d.events.some((e) => e.type === "TxRequestCreated" && e.data.change?.address === c.changeAddress!.data.address)
            ? [c.changeAddress]
            : []
      return { _tag: "Accepted", events: [...change, ...d.events, ...notificationsFor(d.events, s.requests)] }
    }
    case "CreditDeposits":
      return s._tag === "Active" ? decideLedger(c, s.accounts, s.ledger) : { _tag: "Rejected", error: { _tag: "VaultNotFound" } }
    default:
      return absurd(c)
  }
}

const evolve = (s: VaultState, e: VaultAggregateEvent): VaultState => {
  if (txRequestEventTypes.has(e.type)) {
    if (s._tag === "Active") {
      evolveTxRequest(s.requests, s.ledger, e as TxRequestEvent)
      applyEffects(s.ledger, e as TxRequestEvent)
    }
    return s
  }
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
