// Fee previews that need the vault's current state (coin selection): read the aggregate, plan, append nothing.
import { Effect } from "effect"
import { utxoFeePreview, type MultipleTransferRequest } from "../domain/transaction-request/coin-selection.js"
import { vaultDecider, vaultStream } from "../domain/vault/index.js"
import { readAggregate } from "./run-decider.js"

/** What a multiple-transfer would pay now: the selection and fee its creation would decide on this state. */
export const previewMultipleTransferFee = (request: MultipleTransferRequest) =>
  Effect.gen(function* () {
    const s = yield* readAggregate(vaultDecider, vaultStream(request.vaultId))
    if (s._tag !== "Active") return yield* Effect.fail({ _tag: "VaultNotFound" as const })
    const preview = utxoFeePreview(s, request)
    return "_tag" in preview ? yield* Effect.fail(preview) : preview
  })
