import { REQUEST_NOTE } from "../openapi/operation-docs/types.js"
import { since } from "../../domain/api-key/index.js"
import { findAsset, findNetwork } from "../../domain/chains/index.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount } from "../../domain/shared/money.js"
import { createBatchRequest, createTxRequest } from "../../commands/transaction-requests.js"
import { checks, shapes, typed, type JsonObject } from "../body.js"
import { errors, isApiError } from "../errors.js"
import { type Operation, operation } from "../operation.js"
import { runCommand } from "../use-case.js"
import { addressCheck as address, addressOn } from "../inputs/address.js"
import { amountCheck as decimal, amountIn } from "../inputs/amount.js"
import { maxFeeOf } from "../inputs/max-fee.js"
import { note } from "../inputs/note.js"
import { priority } from "../inputs/priority.js"
import { feeStateFor } from "../transfers/create.js"
import { batchChain, batchRecipients, parties } from "../transfers/sponsored.js"
import { GasSponsorshipAnswer, BatchAnswer } from "../wire/sponsored-transfers.js"

const gasSponsorship = operation({
  id: "createGasSponsorshipTransferRequest",
  doc: {
    summary: "Create gas sponsorship transfer request",
    description: `A coin or token transfer whose gas another address of the vault (\`feePayer\`) pays (EVM chains). ${REQUEST_NOTE}`,
    tags: ["Transaction Requests"],
  },
  method: "POST",
  path: "/vaults/:vaultId/transaction-requests/gas-sponsorship-transfer",
  scope: "withdraw",
  vaultParam: "vaultId",
  versions: since("2026-03-20"),
  body: {
    required: {
      vaultAccountId: checks.string({ min: 1 }),
      assetId: checks.string({ min: 1 }),
      fromAddress: address,
      toAddress: address,
      amount: decimal,
      feePayer: address,
      note,
    },
    optional: { feePriority: priority, maxFee: decimal },
  },
  answer: GasSponsorshipAnswer,
  handle: async ({ params, item, requestId, apiVersion }, deps) => {
    const asset = findAsset(item.assetId)
    if (asset === undefined) return errors.resourceNotFound("asset")
    const n = findNetwork(asset.blockchain, asset.network)!
    const p = parties(
      deps,
      apiVersion,
      params.vaultId,
      n,
      "assetId",
      item.vaultAccountId,
      "fromAddress",
      item.fromAddress,
      "feePayer",
      item.feePayer,
    )
    if (isApiError(p)) return p
    const amount = amountIn(item.amount, asset, "amount")
    if (isApiError(amount)) return amount
    const badTo = addressOn(n, item.toAddress, "toAddress")
    if (badTo !== undefined) return badTo
    const feePriority = item.feePriority ?? "standard"
    const ceiling = maxFeeOf(item.maxFee, n)
    if (isApiError(ceiling)) return ceiling
    // The vault decider checks the ceiling (MAX_FEE_EXCEEDED) against the fee mining now would cost, as for single-transfer.
    const r = await runCommand(
      deps,
      createTxRequest(
        {
          vaultId: params.vaultId as VaultId,
          endpoint: "gas-sponsorship",
          network: n,
          asset,
          sender: p.sender,
          feePayer: p.feePayer,
          recipients: [{ address: item.toAddress, amount }],
          feePriority,
          feeLimit: null,
          note: item.note,
          prepareStrategy: null,
          ...(ceiling !== null ? { feeCeiling: ceiling } : {}),
        },
        ceiling !== null ? feeStateFor(deps, n, p.feePayer) : undefined,
      ),
      { requestId },
    )
    if (isApiError(r)) return r
    return {
      status: 201,
      item: {
        transactionRequestId: r.requestId,
        transactionRequestStatus: "created",
        vaultAccountId: p.vaultAccountId,
        assetId: asset.id,
        fromAddress: p.sender,
        toAddress: item.toAddress,
        amount: formatAmount(amount, asset.decimals),
        amountUnit: asset.unit,
        feePayer: p.feePayer,
        feePriority,
        ...(item.maxFee !== undefined ? { maxFee: item.maxFee } : {}),
        note: item.note,
      },
    }
  },
})

/** One to 100 calls, as the UTXO endpoints take recipients (an EIP-7702 batch has no fixed bound; README "Decisions"). */
const MAX_CALLS = 100

const recipientsCheck = typed(shapes.list(shapes.strings(["address", "amount", "assetId"]), 1, MAX_CALLS), (v: unknown) =>
  Array.isArray(v) &&
  v.length >= 1 &&
  v.length <= MAX_CALLS &&
  v.every(
    (r) =>
      typeof r === "object" &&
      r !== null &&
      !Array.isArray(r) &&
      ["address", "amount", "assetId"].every((k) => typeof r[k] === "string") &&
      Object.keys(r).every((k) => k === "address" || k === "amount" || k === "assetId"),
  )
    ? undefined
    : `must be 1 to ${MAX_CALLS} objects { address, amount, assetId } with string values`,
)

const feePayerObject = typed(shapes.strings(["address", "assetId"]), (v: unknown) =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as JsonObject).address === "string" &&
  typeof (v as JsonObject).assetId === "string" &&
  Object.keys(v).every((k) => k === "address" || k === "assetId")
    ? undefined
    : "must be an object { address, assetId } with string values",
)

const batch = operation({
  id: "createBatchTransactionRequest",
  doc: {
    summary: "Create batch transaction request",
    description: `An EIP-7702 batch: one sender, calls in the chain's coin and tokens to many recipients, gas paid by \`feePayer\`, all or nothing. ${REQUEST_NOTE}`,
    tags: ["Transaction Requests"],
  },
  method: "POST",
  path: "/vaults/:vaultId/transaction-requests/batch",
  scope: "withdraw",
  vaultParam: "vaultId",
  versions: since("2026-03-20"),
  body: {
    required: { feePayer: feePayerObject, feePriority: priority, note, recipients: recipientsCheck },
    // The docs name the sender `senderAddress`; the service's own tests send `fromAddress`: either is taken.
    optional: { senderAddress: address, fromAddress: address, vaultAccountId: checks.string({ min: 1 }) },
  },
  answer: BatchAnswer,
  handle: async ({ params, item, requestId, apiVersion }, deps) => {
    const senderAttribute = item.senderAddress !== undefined ? "senderAddress" : "fromAddress"
    const senderAddress = item.senderAddress ?? item.fromAddress
    if (senderAddress === undefined) return errors.missingRequiredAttributes(["senderAddress"])
    if (item.senderAddress !== undefined && item.fromAddress !== undefined && item.senderAddress !== item.fromAddress)
      return errors.invalidData([{ attribute: "fromAddress", message: "names another sender than senderAddress; send one of them" }])
    const payer = item.feePayer
    const n = batchChain(payer.assetId, "feePayer.assetId")
    if (isApiError(n)) return n
    const recipients = batchRecipients(n, item.recipients)
    if (isApiError(recipients)) return recipients
    const p = parties(
      deps,
      apiVersion,
      params.vaultId,
      n,
      "feePayer.assetId",
      item.vaultAccountId,
      senderAttribute,
      senderAddress,
      "feePayer.address",
      payer.address,
    )
    if (isApiError(p)) return p
    const feePriority = item.feePriority
    const r = await runCommand(
      deps,
      createBatchRequest({
        vaultId: params.vaultId as VaultId,
        network: n,
        sender: p.sender,
        feePayer: p.feePayer,
        recipients,
        feePriority,
        note: item.note,
      }),
      { requestId },
    )
    if (isApiError(r)) return r
    return {
      status: 201,
      item: {
        transactionRequestId: r.requestId,
        transactionRequestStatus: "created",
        vaultAccountId: p.vaultAccountId,
        senderAddress: p.sender,
        feePayer: { address: p.feePayer, assetId: n.nativeAssetId },
        feePriority,
        note: item.note,
        recipients: recipients.map((x) => ({
          address: x.address,
          amount: formatAmount(x.amount, x.asset.decimals),
          assetId: x.asset.id,
          amountUnit: x.asset.unit,
        })),
      },
    }
  },
})

export const sponsoredTransferOperations: ReadonlyArray<Operation> = [gasSponsorship, batch]
