// The fee estimates of POST /vaults/{vaultId}/approximate-fee, one per transaction type: the fee a request of that
// type would pay if mined now, from the same draft and spending rules its creation and settlement use (domain
// estimate.ts), and the most it may cost. Each checks the attributes its type requires, in the order its transfer
// does, and writes nothing.
import type { ApiVersion } from "../../domain/api-key/index.js"
import { findAsset, findNetwork, isUtxo, nativeAsset, type FeePriority, type NetworkInfo } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { batchDraftOf } from "../../domain/transaction-request/batch.js"
import { estimateFee, feeOfDraft } from "../../domain/transaction-request/estimate.js"
import { previewMultipleTransferFee } from "../../commands/fee-estimates.js"
import type { JsonObject } from "../body.js"
import { runQuery } from "../use-case.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import type { OperationResult } from "../operation.js"
import { addressOn } from "../inputs/address.js"
import { amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { hasAccount, type Sender, senderByAddress, unknownVault, vaultOn } from "../inputs/parties.js"
import { priorityOptional } from "../inputs/priority.js"
import { type StrategyText, strategyOf } from "../inputs/prepare-strategy.js"
import { requireAttributes } from "../inputs/required.js"
import { feeStateFor } from "./create.js"
import { batchChain, batchRecipients, parties } from "./sponsored.js"
import { MAX_RECIPIENTS, parseRecipients, recipientsIn, utxoNetworkOf } from "./utxo.js"

/** The estimate's body, decoded: one body for the three types, each requiring its own attributes. */
interface EstimateInput {
  readonly vaultAccountId?: string | undefined
  readonly amount?: string | undefined
  readonly assetId?: string | undefined
  readonly feePayer?: string | undefined
  readonly feePayerAssetId?: string | undefined
  readonly feePriority?: FeePriority | undefined
  readonly fromAddress?: string | undefined
  readonly toAddress?: string | undefined
  readonly prepareStrategy?: StrategyText | undefined
  readonly recipients?: ReadonlyArray<JsonObject> | undefined
}

const feeOf = (n: NetworkInfo) => {
  const native = nativeAsset(n.blockchain, n.network)!
  return (x: bigint) => ({ amount: formatAmount(x, native.decimals), amountUnit: native.unit, assetId: native.id })
}

/** The sender of a single estimate, and its fee payer when another address pays. */
type Payers = Sender & { readonly feePayer?: string }

/** Gas sponsorship: the sender and the fee payer as gas-sponsorship-transfer checks them. */
const sponsorOf = (
  deps: ApiDeps,
  vaultId: string,
  n: NetworkInfo,
  item: { readonly vaultAccountId?: string | undefined; readonly fromAddress: string },
  feePayer: string,
  version: ApiVersion,
): Payers | ApiError => {
  const p = parties(deps, version, vaultId, n, "assetId", item.vaultAccountId, "fromAddress", item.fromAddress, "feePayer", feePayer)
  return isApiError(p) ? p : { address: p.sender, vaultAccountId: p.vaultAccountId, feePayer: p.feePayer }
}

/** single: the fee a single transfer (or, with `feePayer`, a gas-sponsorship transfer) would pay if mined now. */
export const estimateSingle = (deps: ApiDeps, vaultId: string, body: EstimateInput, version: ApiVersion): OperationResult => {
  const item = requireAttributes(body, ["amount", "assetId", "fromAddress"])
  if (isApiError(item)) return item
  const asset = findAsset(item.assetId)
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
  const feePayer = item.feePayer
  const sender: Payers | ApiError =
    feePayer !== undefined
      ? sponsorOf(deps, vaultId, n, item, feePayer, version)
      : senderByAddress(deps, vaultId, n, item.fromAddress, item.vaultAccountId)
  if (isApiError(sender)) return sender
  const from = sender.address
  const feePriority = item.feePriority ?? null
  const estimate = estimateFee(
    {
      vaultId: vaultId as VaultId,
      endpoint: "single-transfer",
      network: n,
      asset,
      sender: from,
      ...(sender.feePayer !== undefined ? { feePayer: sender.feePayer } : {}),
      // The recipient does not change an account-based fee; an estimate may leave it out (spec: toAddress for EVM).
      recipients: [{ address: item.toAddress ?? "", amount }],
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
export const estimateBatch = (deps: ApiDeps, vaultId: string, body: EstimateInput, version: ApiVersion): OperationResult => {
  const item = requireAttributes(body, ["fromAddress", "feePayer", "feePayerAssetId", "recipients", "feePriority"])
  if (isApiError(item)) return item
  const n = batchChain(item.feePayerAssetId, "feePayerAssetId")
  if (isApiError(n)) return n
  const recipients = batchRecipients(n, item.recipients)
  if (isApiError(recipients)) return recipients
  const p = parties(
    deps,
    version,
    vaultId,
    n,
    "feePayerAssetId",
    item.vaultAccountId,
    "fromAddress",
    item.fromAddress,
    "feePayer",
    item.feePayer,
  )
  if (isApiError(p)) return p
  const feePriority = item.feePriority
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
export const estimateMultiple = async (
  deps: ApiDeps,
  vaultId: string,
  body: EstimateInput,
  version: ApiVersion,
): Promise<OperationResult> => {
  const item = requireAttributes(body, ["assetId", "recipients", "feePriority", "vaultAccountId"])
  if (isApiError(item)) return item
  const n = utxoNetworkOf(deps, vaultId, item.assetId, version)
  if (isApiError(n)) return n
  if (!hasAccount(deps, vaultId, item.vaultAccountId, undefined)) return errors.resourceNotFound("vault account")
  // The spec checks the estimate's recipients as objects (one body for the three types); a multiple's as its transfer's.
  const shaped = recipientsIn(MAX_RECIPIENTS, item.recipients)
  if (typeof shaped === "string") return invalidField("recipients", shaped)
  const recipients = parseRecipients(n, shaped)
  if (isApiError(recipients)) return recipients
  const prepareStrategy = strategyOf(item.prepareStrategy ?? "minimize-dust")
  const request = {
    vaultId: vaultId as VaultId,
    vaultAccountId: item.vaultAccountId,
    network: n,
    recipients,
    feePriority: item.feePriority,
    prepareStrategy,
    maxFee: null,
    gross: false,
    note: null,
  }
  const preview = await runQuery(deps, previewMultipleTransferFee(request))
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
