// The one place where domain and store failures become HTTP answers; a tag without a row does not compile.
import { Cause, Exit } from "effect"
import type { ChainError } from "../chain-sim/index.js"
import type { ApiKeyError } from "../domain/api-key/index.js"
import type { VaultAggregateError } from "../domain/vault/index.js"
import type { FaultError } from "../domain/fault/index.js"
import type { WebhookError } from "../domain/webhook/index.js"
import type { StoreUnavailable, WrongExpectedVersion } from "../store/event-store.js"
import { isFoldHalt } from "../projections/runner.js"
import { findAsset } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"
import { ApiError, errors } from "./errors.js"

export type AppError = VaultAggregateError | ApiKeyError | ChainError | WebhookError | FaultError | WrongExpectedVersion | StoreUnavailable

const errorTable: { readonly [K in AppError["_tag"]]: (e: Extract<AppError, { _tag: K }>) => ApiError } = {
  VaultAlreadyExists: (e) =>
    new ApiError(409, "resource_already_exists", `A vault with id ${e.vaultId} already exists.`, [
      { attribute: "id", message: "is taken" },
    ]),
  VaultNotFound: () => errors.resourceNotFound("vault"),
  ApiKeyAlreadyExists: () =>
    new ApiError(409, "resource_already_exists", "An API key with this key already exists.", [{ attribute: "key", message: "is taken" }]),
  ApiKeyNotFound: () => errors.resourceNotFound("API key"),
  VaultAccountNotFound: () => errors.resourceNotFound("vault account"),
  VaultAccountAlreadyExists: () => new ApiError(409, "resource_already_exists", "A vault account with this id already exists."),
  NetworkNotAllowedForVault: (e) =>
    new ApiError(
      400,
      "network_not_allowed_for_vault",
      `A ${e.networkType === "main" ? "test" : "main"} vault cannot use ${e.networkType === "main" ? "mainnets" : "testnets"}.`,
      [{ attribute: "network", message: `must be a ${e.networkType === "main" ? "test" : "main"} network for this vault` }],
    ),
  AddressNotHeld: (e) =>
    errors.invalidData([{ attribute: "address", message: `is not an address of this vault account on ${e.blockchain}/${e.network}` }]),
  AddressHoldsAnotherAsset: (e) =>
    new ApiError(
      409,
      "address_holds_another_asset",
      `On UTXO chains an address holds exactly one asset; ${e.address} holds its native coin.`,
      [{ attribute: "assetId", message: "cannot be added to this address" }],
    ),
  AssetAlreadyAdded: (e) =>
    new ApiError(
      409,
      "resource_already_exists",
      `Asset ${e.assetId} is already added to vault account ${e.vaultAccountId} (at ${e.address}).`,
      [{ attribute: "assetId", message: "is already added to this vault account" }],
    ),
  NothingToCredit: () => errors.conflict(),
  TxRequestNotFound: () => errors.resourceNotFound("transaction request"),
  IllegalTxTransition: (e) =>
    new ApiError(409, "illegal_transaction_request_transition", `A transaction request in status ${e.from} cannot take ${e.command}.`),
  InsufficientFunds: (e) =>
    e.feePayer === true
      ? new ApiError(
          400,
          "insufficient_balance",
          `Insufficient balance at the fee payer ${e.address}: ${inUnit(e.needed, e.assetId)} needed (the maximum fee), ${inUnit(e.available, e.assetId)} available.`,
          [{ attribute: "feePayer", message: "cannot cover the maximum fee" }],
        )
      : new ApiError(
          400,
          "insufficient_balance",
          `Insufficient balance${e.address !== null ? ` at ${e.address}` : ""}: ${inUnit(e.needed, e.assetId)} requested (amount plus maximum fee), ${inUnit(e.available, e.assetId)} available.`,
          [{ attribute: "amount", message: "exceeds the available balance (amount plus maximum fee)" }],
        ),
  SenderNotInVault: (e) => errors.resourceNotFound(`sender address ${e.address} in this vault`),
  AssetNotHeldBySender: (e) =>
    new ApiError(400, "asset_not_added_to_address", `The address ${e.address} does not hold the asset; add it first.`, [
      { attribute: "assetId", message: "is not added to the sender address" },
    ]),
  UtxoNotFound: (e) =>
    new ApiError(404, "resource_not_found", `The UTXO ${e.utxoId} was not found in this vault on the asset's chain.`, [
      { attribute: "senders", message: `${e.utxoId} is not an output of this vault` },
    ]),
  UtxoSpent: (e) =>
    new ApiError(409, "utxo_already_spent", `The UTXO ${e.utxoId} is already spent.`, [
      { attribute: "senders", message: `${e.utxoId} is spent` },
    ]),
  UtxoReserved: (e) =>
    new ApiError(409, "utxo_reserved", `The UTXO ${e.utxoId} is reserved by another open transaction request.`, [
      { attribute: "senders", message: `${e.utxoId} is reserved` },
    ]),
  // Spec 2026 §2.5 names the code only; 400 and a refusal at creation are README decisions (open point 17).
  MaxFeeExceeded: (e) => maxFeeExceeded(e.fee, e.maxFee, e.assetId),
  GrossFeeExceedsAmount: (e) =>
    errors.invalidData([
      {
        attribute: `recipients[${e.recipient}].amount`,
        message: `does not cover its share of the network fee (${e.fee} base units in all)`,
      },
    ]),
  FeePayerNotInVault: (e) =>
    new ApiError(404, "resource_not_found", `The fee payer ${e.address} is not an address of this vault on the asset's chain.`, [
      { attribute: "feePayer", message: "is not a vault address" },
    ]),
  ChangeAddressNotInVault: (e) =>
    errors.invalidData([{ attribute: "changeData.address", message: `${e.address} is not an address of this vault on the asset's chain` }]),
  ChangeAccountNotFound: () => errors.resourceNotFound("vault account"),
  FeeAssetNotHeldByFeePayer: (e) =>
    new ApiError(
      400,
      "asset_not_added_to_address",
      `The fee payer ${e.address} does not hold ${e.assetId}, the asset fees are paid in; add it first.`,
      [{ attribute: "feePayer", message: "does not hold the chain's fee asset" }],
    ),
  BadMiningSchedule: (e) => errors.invalidData([{ attribute: "mining", message: e.reason }]),
  WebhookAlreadyExists: () => new ApiError(409, "resource_already_exists", "A webhook subscription with this id already exists."),
  WebhookNotFound: () => errors.resourceNotFound("webhook subscription"),
  FaultAlreadyExists: () => new ApiError(409, "resource_already_exists", "A fault with this id already exists."),
  FaultNotFound: () => errors.resourceNotFound("fault"),
  FaultExhausted: () => new ApiError(409, "fault_exhausted", "The fault has fired as many times as it was set to."),
  WrongExpectedVersion: () => errors.conflict(),
  StoreUnavailable: (e) =>
    isFoldHalt(e.cause)
      ? new ApiError(
          503,
          "service_unavailable",
          `This node cannot show the outcome: ${e.reason}. A write may have been recorded; see /_sim/health.`,
        )
      : errors.storeUnavailable(),
}

/** Base units of an asset as a user reads them: "1.5 ETH" (base units only for an asset the catalogue has not). */
const inUnit = (baseUnits: string, assetId: string | undefined): string => {
  const asset = assetId === undefined ? undefined : findAsset(assetId)
  return asset === undefined ? `${baseUnits} base units` : `${formatAmount(BigInt(baseUnits), asset.decimals)} ${asset.unit}`
}

const maxFeeExceeded = (fee: string, ceiling: string, assetId: string | undefined): ApiError =>
  new ApiError(
    400,
    "MAX_FEE_EXCEEDED",
    `The network fee would be ${inUnit(fee, assetId)}, above maxFee (${inUnit(ceiling, assetId)}); nothing was created.`,
    [{ attribute: "maxFee", message: `is below the fee the transfer would pay now (${inUnit(fee, assetId)})` }],
  )

export const toApiError = (e: AppError): ApiError => (errorTable[e._tag] as (e: AppError) => ApiError)(e)

/**
 * The status and code of each row (a write can answer any of them; the OpenAPI documents list them): each row
 * called with its tag alone, as a row's status and code never depend on the failure's fields.
 */
export const errorTableAnswers = (): ReadonlyArray<{ readonly status: number; readonly code: string }> =>
  Object.keys(errorTable).map((tag) => {
    const e = toApiError({ _tag: tag } as AppError)
    return { status: e.status, code: e.code }
  })

/** Turns a command's exit into its value or an ApiError; defects are rethrown (the route answers 500). */
export const exitToResult = <A>(exit: Exit.Exit<A, AppError>): A | ApiError => {
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.findErrorOption(exit.cause)
  if (failure._tag === "Some") return toApiError(failure.value)
  throw Cause.squash(exit.cause)
}
