// POST /vaults/{vaultId}/approximate-fee (2026-03-20, spec §3.4.9): the fee a request of that type would pay if
// mined now, and the most it may cost (what the request would hold back); transfers/fee-estimates.ts estimates
// each type. Writes nothing.
import { Schema } from "effect"
import { since } from "../../domain/api-key/index.js"
import { checks, shapes, typed } from "../body.js"
import { type Operation, operation } from "../operation.js"
import { ApproximateFee } from "../wire/approximate-fee.js"
import { amountCheck } from "../inputs/amount.js"
import { shortNote } from "../inputs/note.js"
import { priority } from "../inputs/priority.js"
import { estimateBatch, estimateMultiple, estimateSingle } from "../transfers/fee-estimates.js"

const TYPES = ["single", "multiple", "batch"] as const
const transactionType = checks.oneOf(TYPES)
const prepareStrategy = checks.oneOf(["minimize_dust", "optimize_size", "minimize-dust", "optimize-size"])

const addressCheck = checks.string({ min: 1, max: 200 })
const recipientsCheck = typed(shapes.list(Schema.Record(Schema.String, Schema.Unknown), 1, 150), (v) =>
  Array.isArray(v) && v.length >= 1 && v.length <= 150 && v.every((r) => typeof r === "object" && r !== null && !Array.isArray(r))
    ? undefined
    : "must be 1 to 150 objects { address, amount, assetId? }",
)

const body = {
  required: { transactionType },
  optional: {
    vaultAccountId: checks.string({ min: 1 }),
    amount: amountCheck,
    assetId: checks.string({ min: 1 }),
    feePayer: addressCheck,
    feePayerAssetId: checks.string({ min: 1 }),
    feePriority: priority,
    fromAddress: addressCheck,
    toAddress: addressCheck,
    prepareStrategy,
    recipients: recipientsCheck,
    // The create call's own fields, accepted so that one body serves both calls.
    note: shortNote,
    maxFee: amountCheck,
  },
}

export const approximateFeeOperations: ReadonlyArray<Operation> = [
  operation({
    id: "estimateApproximateFee",
    doc: {
      summary: "Estimate approximate fee",
      description:
        "The fee a transfer would pay if mined now, and the most it may cost, from the simulated chain's current fee state; writes nothing.",
      tags: ["Fees"],
    },
    method: "POST",
    path: "/vaults/:vaultId/approximate-fee",
    scope: "read",
    created: false,
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    body,
    answer: ApproximateFee,
    handle: async ({ params, item, apiVersion }, deps) => {
      const type = item.transactionType
      if (type === "multiple") return estimateMultiple(deps, params.vaultId, item, apiVersion)
      if (type === "batch") return estimateBatch(deps, params.vaultId, item, apiVersion)
      return estimateSingle(deps, params.vaultId, item, apiVersion)
    },
  }),
]
