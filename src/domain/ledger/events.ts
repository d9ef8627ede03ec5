// Ledger events of a vault: what changes balances. Amounts are base units as integer strings (JSON has no bigint).
import type { AssetId, VaultId } from "../shared/ids.js"
import { everyMember } from "../shared/members.js"
import type { SimInstant } from "../shared/sim-time.js"

export interface DepositFacts {
  readonly vaultId: VaultId
  readonly vaultAccountId: string | null
  readonly transactionId: string
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly fromAddress: string
  readonly assetId: AssetId
  readonly amount: string
  readonly blockHeight: number
  readonly blockHash: string
  readonly confirmations: number
  /** The output index that pays the vault, on UTXO chains; null elsewhere. */
  readonly vout: number | null
}

/** Facts a webhook subscriber is told about (the spec's event kinds, and those a user would also expect). */
export type NotificationKind =
  | "INCOMING_CONFIRMED_COIN_TX"
  | "INCOMING_CONFIRMED_TOKEN_TX"
  | "INCOMING_MINED_TX"
  | "TRANSACTION_REQUEST"
  | "TRANSACTION_APPROVED"
  | "TRANSACTION_REJECTED"
  | "OUTGOING_MINED"
  | "OUTGOING_FAILED"

export type LedgerEvent =
  | { readonly type: "DepositCredited"; readonly data: DepositFacts & { readonly at: SimInstant } }
  | {
      readonly type: "NotificationRaised"
      readonly data: {
        readonly vaultId: VaultId
        readonly kind: NotificationKind
        readonly subject: string
        readonly payload: Readonly<Record<string, string | number | null>>
        readonly at: SimInstant
      }
    }

/** Every LedgerEvent type; one left out of the record fails to compile. */
export const ledgerEventTypes: ReadonlySet<string> = new Set(
  everyMember<LedgerEvent["type"]>({ DepositCredited: true, NotificationRaised: true }),
)
