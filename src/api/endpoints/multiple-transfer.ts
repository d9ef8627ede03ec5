// 2026-03-20's multiple-transfer: a UTXO withdrawal from one vault account, its outputs chosen by prepareStrategy.
import { REQUEST_NOTE } from "../openapi/operation-docs/types.js"
import { since } from "../../domain/api-key/index.js"
import { findAsset } from "../../domain/chains/index.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount } from "../../domain/shared/money.js"
import { createMultipleTransfer } from "../../commands/utxo-transfers.js"
import { checks } from "../body.js"
import { errors, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { runCommand } from "../use-case.js"
import { MultipleTransferRequest } from "../wire/utxos.js"
import { amountCheck } from "../inputs/amount.js"
import { maxFeeOf } from "../inputs/max-fee.js"
import { shortNote as note } from "../inputs/note.js"
import { hasAccount } from "../inputs/parties.js"
import { priority } from "../inputs/priority.js"
import { strategyOf } from "../inputs/prepare-strategy.js"
import { MAX_RECIPIENTS, parseRecipients, recipientsCheck, utxoNetworkOf } from "../transfers/utxo.js"

/** Both spellings the service's documents use. */
const strategy = checks.oneOf(["minimize_dust", "optimize_size", "minimize-dust", "optimize-size"])

export const multipleTransferOperations: ReadonlyArray<Operation> = [
  operation({
    id: "createMultipleTransfer",
    doc: {
      summary: "Create multiple transfer",
      description: `A UTXO withdrawal from one vault account to many recipients, its outputs chosen by \`prepareStrategy\` (either spelling the contract shows), \`maxFee\`, \`gross\`. ${REQUEST_NOTE}`,
      tags: ["UTXOs", "Transaction Requests"],
    },
    method: "POST",
    path: "/vaults/:vaultId/transaction-requests/multiple-transfer",
    scope: "withdraw",
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    body: {
      required: {
        assetId: checks.string({ min: 1, max: 64 }),
        feePriority: priority,
        note,
        prepareStrategy: strategy,
        recipients: recipientsCheck(MAX_RECIPIENTS),
        vaultAccountId: checks.string({ min: 1, max: 64 }),
      },
      optional: { gross: checks.boolean(), maxFee: amountCheck },
    },
    answer: MultipleTransferRequest,
    handle: async ({ params, item, requestId, apiVersion }, deps): Promise<OperationResult> => {
      const vaultId = params.vaultId
      const n = utxoNetworkOf(deps, vaultId, item.assetId, apiVersion)
      if (isApiError(n)) return n
      if (!hasAccount(deps, vaultId, item.vaultAccountId, undefined)) return errors.resourceNotFound("vault account")
      const recipients = parseRecipients(n, item.recipients)
      if (isApiError(recipients)) return recipients
      const maxFee = maxFeeOf(item.maxFee, n)
      if (isApiError(maxFee)) return maxFee
      const request = {
        vaultId: vaultId as VaultId,
        vaultAccountId: item.vaultAccountId,
        network: n,
        recipients,
        feePriority: item.feePriority,
        prepareStrategy: strategyOf(item.prepareStrategy),
        maxFee,
        gross: item.gross === true,
        note: item.note,
      }
      const r = await runCommand(deps, createMultipleTransfer(request), { requestId })
      if (isApiError(r)) return r
      const draft = r.state._tag === "Active" ? r.state.requests.get(r.requestId)?.draft : undefined
      if (draft === undefined) return errors.internal()
      const asset = findAsset(n.nativeAssetId)!
      const fmt = (x: bigint) => formatAmount(x, asset.decimals)
      return {
        status: 201,
        item: {
          transactionRequestId: r.requestId,
          transactionRequestStatus: "created",
          vaultAccountId: request.vaultAccountId,
          assetId: asset.id,
          amountUnit: asset.symbol,
          feePriority: request.feePriority,
          prepareStrategy: item.prepareStrategy,
          gross: request.gross,
          recipients: draft.recipients.map((x) => ({ address: x.address, amount: fmt(BigInt(x.amount)), amountUnit: asset.symbol })),
          totalTransactionAmount: fmt(draft.recipients.reduce((a, x) => a + BigInt(x.amount), 0n)),
          fee: { amount: fmt(BigInt(draft.maxFee)), amountUnit: asset.symbol },
          ...(maxFee !== null ? { maxFee: item.maxFee } : {}),
          note: request.note,
        },
      }
    },
  }),
]
