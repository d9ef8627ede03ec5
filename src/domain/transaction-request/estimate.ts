// The fee a request would pay if it were mined now: the rule settlement applies when it is mined (spending.ts)
// to the draft its creation would build (draft.ts), and what the chain's execution would take from the payer's
// tron stake (fees.ts's stakedUse), so an estimate and the mined fee agree for the same state.
import { findAsset, type NetworkInfo } from "../chains/index.js"
import { stakedUse, tronCost, type StakedUnits } from "../chains/fees.js"
import { tronTxKind } from "../chains/tron-operation.js"
import { draftOf, type CreateRequestInput } from "./draft.js"
import { spending } from "./spending.js"
import type { TxRequestDraft } from "./events.js"

/**
 * What the chain's state contributes to a fee besides the draft, for the address that pays it (the fee payer, else
 * the sender): tron's free bandwidth it used in the last day, and the staked units it has free now.
 */
export interface FeeState {
  readonly freeBandwidthUsed: number
  readonly staked?: StakedUnits
}

export interface FeeEstimate {
  /** What mining it now would cost, native base units (the mined request's `fee`). */
  readonly fee: bigint
  /** What the request holds back for the fee until mined: the most it may cost. */
  readonly maxFee: bigint
}

type FeeDraft = Pick<
  TxRequestDraft,
  "assetId" | "feeAssetId" | "maxFee" | "feeLimit" | "inputs" | "change" | "recipients" | "sender" | "operation"
>

/** The fee of a draft if mined now, as settlement records it (a transfer that does not fail in execution). */
export const feeOfDraft = (n: NetworkInfo, draft: FeeDraft, state: FeeState): bigint => {
  const cost = tronCost(n, tronTxKind(findAsset(draft.assetId)?.type !== "TOKEN", draft.operation))
  const executed = cost !== undefined && state.staked !== undefined ? stakedUse(cost, state.staked) : undefined
  return spending(n, draft as TxRequestDraft, false, state.freeBandwidthUsed, executed).fee
}

/** The estimate of a request from an address (account-based chains): no vault state is needed to build its draft. */
export const estimateFee = (input: CreateRequestInput, state: FeeState): FeeEstimate => {
  const draft = draftOf(undefined, input, "", "", null)
  return { fee: feeOfDraft(input.network, draft, state), maxFee: BigInt(draft.maxFee) }
}
