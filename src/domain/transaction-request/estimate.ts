// The fee a request would pay if it were mined now: the rule settlement applies when it is mined (spending.ts)
// to the draft its creation would build (draft.ts), so an estimate and the mined fee agree for the same state.
import type { NetworkInfo } from "../chains/index.js"
import { draftOf, type CreateRequestInput } from "./draft.js"
import { spending } from "./spending.js"
import type { TxRequestDraft } from "./events.js"

/** What the chain's state contributes to a fee besides the draft: tron's free bandwidth the sender used in the last day. */
export interface FeeState {
  readonly freeBandwidthUsed: number
}

export interface FeeEstimate {
  /** What mining it now would cost, native base units (the mined request's `fee`). */
  readonly fee: bigint
  /** What the request holds back for the fee until mined: the most it may cost. */
  readonly maxFee: bigint
}

/** The fee of a draft if mined now, as settlement records it (a transfer that does not fail in execution). */
export const feeOfDraft = (n: NetworkInfo, draft: Pick<TxRequestDraft, "assetId" | "feeAssetId" | "maxFee" | "feeLimit" | "inputs" | "change" | "recipients" | "sender">, state: FeeState): bigint =>
  spending(n, draft as TxRequestDraft, false, state.freeBandwidthUsed).fee

/** The estimate of a request from an address (account-based chains): no vault state is needed to build its draft. */
export const estimateFee = (input: CreateRequestInput, state: FeeState): FeeEstimate => {
  const draft = draftOf(undefined, input, "", "", null)
  return { fee: feeOfDraft(input.network, draft, state), maxFee: BigInt(draft.maxFee) }
}
