// POST /vaults/{vaultId}/approximate-fee (2026-03-20, spec §3.4.9): the fee a request of that type would pay if
// mined now, from the same draft and spending rules its creation and settlement use (domain estimate.ts), and
// the most it may cost (what the request would hold back). Writes nothing.
import { Schema } from "effect"
import { since, type ApiVersion } from "../../domain/api-key/index.js"
import { findAsset, findNetwork, isUtxo, nativeAsset, type FeePriority, type NetworkInfo } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { batchDraftOf } from "../../domain/transaction-request/batch.js"
import { estimateFee, feeOfDraft } from "../../domain/transaction-request/estimate.js"
import type { PrepareStrategy } from "../../domain/transaction-request/coin-selection.js"
import { previewMultipleTransferFee } from "../../commands/fee-estimates.js"
import { checks, shapes, typed, type FieldCheck, type JsonObject } from "../body.js"
import { exitToResult } from "../error-table.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import type { Operation, OperationResult } from "../operation.js"
import { ApproximateFee } from "../wire/approximate-fee.js"
import { addressOn } from "../inputs/address.js"
import { amountCheck, amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { shortNote } from "../inputs/note.js"
import { hasAccount, unknownVault, vaultOn } from "../inputs/parties.js"
import { priority, priorityOptional } from "../inputs/priority.js"
import { accountIdOf } from "../../domain/vault-account/index.js"
import { feeStateFor } from "../transfers/create.js"
import { batchChain, batchRecipients, parties } from "../transfers/sponsored.js"
import { MAX_RECIPIENTS, parseRecipients, recipientsCheck as utxoRecipients, utxoNetworkOf } from "../transfers/utxo.js"

const TYPES = ["single", "multiple", "batch"] as const
type TransactionType = (typeof TYPES)[number]

const addressCheck = checks.string({ min: 1, max: 200 })
const recipientsCheck: FieldCheck = typed(shapes.list(Schema.Record(Schema.String, Schema.Unknown), 1, 150), (v) =>
  Array.isArray(v) && v.length >= 1 && v.length <= 150 && v.every((r) => typeof r === "object" && r !== null && !Array.isArray(r))
    ? undefined
    : "must be 1 to 150 objects { address, amount, assetId? }",
)

const missingOf = (item: JsonObject, keys: ReadonlyArray<string>) => {
  const missing = keys.filter((k) => item[k] === undefined)
  return missing.length > 0 ? errors.missingRequiredAttributes(missing) : undefined
}

const feeOf = (n: NetworkInfo) => {
  const native = nativeAsset(n.blockchain, n.network)!
  return (x: bigint) => ({ amount: formatAmount(x, native.decimals), amountUnit: native.unit, assetId: native.id })
}

type Sender = { readonly address: string; readonly vaultAccountId: string; readonly feePayer?: string }

/** Gas sponsorship: the sender and the fee payer as gas-sponsorship-transfer checks them. */
const sponsorOf = (deps: ApiDeps, vaultId: string, n: NetworkInfo, item: JsonObject, version: ApiVersion): Sender | ApiError => {
  const p = parties(
    deps,
    version,
    vaultId,
    n,
    "assetId",
    item.vaultAccountId as string | undefined,
    "fromAddress",
    item.fromAddress as string,
    "feePayer",
    item.feePayer as string,
  )
  return isApiError(p) ? p : { address: p.sender, vaultAccountId: p.vaultAccountId, feePayer: p.feePayer }
}

/** The sender in this vault (in `vaultAccountId` when one is named; the default account's id is the vault's). */
const senderOf = (deps: ApiDeps, vaultId: string, blockchain: string, network: string, item: JsonObject): Sender | ApiError => {
  const from = deps.sim.models.holdings.address(blockchain, network, item.fromAddress as string, undefined)
  if (from === undefined || from.facts.vaultId !== vaultId) return errors.resourceNotFound("fromAddress in this vault")
  const owner = accountIdOf(from.facts)
  if (item.vaultAccountId !== undefined && item.vaultAccountId !== owner)
    return hasAccount(deps, vaultId, item.vaultAccountId as string, undefined)
      ? errors.resourceNotFound("fromAddress in this vault account")
      : errors.resourceNotFound("vault account")
  return { address: from.facts.address, vaultAccountId: owner }
}

const single = (deps: ApiDeps, vaultId: string, item: JsonObject, version: ApiVersion): OperationResult => {
  const missing = missingOf(item, ["amount", "assetId", "fromAddress"])
  if (missing !== undefined) return missing
  const asset = findAsset(item.assetId as string)
  if (asset === undefined) return errors.resourceNotFound("asset")
  if (isUtxo(asset.blockchain))
    return invalidField("assetId", "a single transfer is for account-based chains; estimate a UTXO transfer with transactionType multiple")
  const n = findNetwork(asset.blockchain, asset.network)!
  const needed = [
    ...(item.feePriority === undefined && !priorityOptional(n) ? ["feePriority"] : []),
    ...(item.toAddress === undefined && n.family === "evm" ? ["toAddress"] : []),
  ]
  if (needed.length > 0) return errors.missingRequiredAttributes(needed)
  const vault = vaultOn(deps, vaultId, n, "assetId", unknownVault(version))
  if (isApiError(vault)) return vault
  const amount = amountIn(item.amount, asset)
  if (isApiError(amount)) return amount
  if (item.toAddress !== undefined) {
    const badTo = addressOn(n, item.toAddress, "toAddress")
    if (badTo !== undefined) return badTo
  }
  const sponsored = item.feePayer !== undefined
  const sender = sponsored ? sponsorOf(deps, vaultId, n, item, version) : senderOf(deps, vaultId, n.blockchain, n.network, item)
  if (isApiError(sender)) return sender
  const from = sender.address
  const feePriority = (item.feePriority as FeePriority | undefined) ?? null
  const estimate = estimateFee(
    {
      vaultId: vaultId as VaultId,
      endpoint: "single-transfer",
      network: n,
      asset,
      sender: from,
      ...(sender.feePayer !== undefined ? { feePayer: sender.feePayer } : {}),
      // The recipient does not change an account-based fee; an estimate may leave it out (spec: toAddress for EVM).
      recipients: [{ address: (item.toAddress as string | undefined) ?? "", amount }],
      feePriority,
      feeLimit: null,
      note: null,
      prepareStrategy: null,
    },
    feeStateFor(deps, n, sender.feePayer ?? from),
  )
  const fee = feeOf(n)
  return {
    status: 200,
    item: {
      transactionType: "single",
      blockchain: n.blockchain,
      network: n.network,
      assetId: asset.id,
      vaultAccountId: sender.vaultAccountId,
      fromAddress: from,
      ...(sender.feePayer !== undefined ? { feePayer: sender.feePayer } : {}),
      feePriority: feePriority ?? "standard",
      fee: fee(estimate.fee),
      maxFee: fee(estimate.maxFee),
    },
  }
}

/** batch: the draft batch's creation would build (its one fee for every call, at the fee payer), if mined now. */
const batch = (deps: ApiDeps, vaultId: string, item: JsonObject, version: ApiVersion): OperationResult => {
  const missing = missingOf(item, ["fromAddress", "feePayer", "feePayerAssetId", "recipients", "feePriority"])
  if (missing !== undefined) return missing
  const n = batchChain(item.feePayerAssetId as string, "feePayerAssetId")
  if (isApiError(n)) return n
  const recipients = batchRecipients(n, item.recipients as Array<JsonObject>)
  if (isApiError(recipients)) return recipients
  const p = parties(
    deps,
    version,
    vaultId,
    n,
    "feePayerAssetId",
    item.vaultAccountId as string | undefined,
    "fromAddress",
    item.fromAddress as string,
    "feePayer",
    item.feePayer as string,
  )
  if (isApiError(p)) return p
  const feePriority = item.feePriority as FeePriority
  const draft = batchDraftOf(
    undefined,
    { vaultId: vaultId as VaultId, network: n, sender: p.sender, feePayer: p.feePayer, recipients, feePriority, note: null },
    "",
    "",
  )
  const fee = feeOf(n)
  const value = feeOfDraft(n, draft, feeStateFor(deps, n, p.feePayer))
  return {
    status: 200,
    item: {
      transactionType: "batch",
      blockchain: n.blockchain,
      network: n.network,
      assetId: n.nativeAssetId,
      vaultAccountId: p.vaultAccountId,
      fromAddress: p.sender,
      feePayer: p.feePayer,
      feePriority,
      fee: fee(value),
      maxFee: fee(BigInt(draft.maxFee)),
    },
  }
}

/** multiple: the selection and fee a multiple-transfer of this account would get now (nothing reserved). */
const multiple = async (deps: ApiDeps, vaultId: string, item: JsonObject, version: ApiVersion): Promise<OperationResult> => {
  const missing = missingOf(item, ["assetId", "recipients", "feePriority", "vaultAccountId"])
  if (missing !== undefined) return missing
  const n = utxoNetworkOf(deps, vaultId, item.assetId as string, version)
  if (isApiError(n)) return n
  if (!hasAccount(deps, vaultId, item.vaultAccountId as string, undefined)) return errors.resourceNotFound("vault account")
  const shape = utxoRecipients(MAX_RECIPIENTS)(item.recipients)
  if (shape !== undefined) return invalidField("recipients", shape)
  const recipients = parseRecipients(n, item.recipients as Array<{ address: string; amount: string }>)
  if (isApiError(recipients)) return recipients
  const prepareStrategy = ((item.prepareStrategy as string | undefined) ?? "minimize-dust").replace("_", "-") as PrepareStrategy
  const request = {
    vaultId: vaultId as VaultId,
    vaultAccountId: item.vaultAccountId as string,
    network: n,
    recipients,
    feePriority: item.feePriority as FeePriority,
    prepareStrategy,
    maxFee: null,
    gross: false,
    note: null,
  }
  const preview = exitToResult(await deps.sim.run(previewMultipleTransferFee(request)))
  if (isApiError(preview)) return preview
  const fee = feeOf(n)
  return {
    status: 200,
    item: {
      transactionType: "multiple",
      blockchain: n.blockchain,
      network: n.network,
      assetId: n.nativeAssetId,
      vaultAccountId: request.vaultAccountId,
      feePriority: request.feePriority,
      prepareStrategy,
      // A UTXO fee is exact once the inputs are chosen: the most it may cost is the fee.
      fee: fee(preview.fee),
      maxFee: fee(preview.fee),
    },
  }
}

export const approximateFeeOperations: ReadonlyArray<Operation> = [
  {
    id: "estimateApproximateFee",
    method: "POST",
    path: "/vaults/:vaultId/approximate-fee",
    scope: "read",
    created: false,
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    body: {
      required: { transactionType: checks.oneOf(TYPES) },
      optional: {
        vaultAccountId: checks.string({ min: 1 }),
        amount: amountCheck,
        assetId: checks.string({ min: 1 }),
        feePayer: addressCheck,
        feePayerAssetId: checks.string({ min: 1 }),
        feePriority: priority,
        fromAddress: addressCheck,
        toAddress: addressCheck,
        prepareStrategy: checks.oneOf(["minimize_dust", "optimize_size", "minimize-dust", "optimize-size"]),
        recipients: recipientsCheck,
        // The create call's own fields, accepted so that one body serves both calls.
        note: shortNote,
        maxFee: amountCheck,
      },
    },
    answer: ApproximateFee,
    handle: async ({ params, item, apiVersion }, deps) => {
      const type = item.transactionType as TransactionType
      if (type === "multiple") return multiple(deps, params.vaultId!, item, apiVersion)
      if (type === "batch") return batch(deps, params.vaultId!, item, apiVersion)
      return single(deps, params.vaultId!, item, apiVersion)
    },
  },
]
