// 2026-03-20's utxo-transfer (named inputs, possibly from several accounts of one vault) and its dry run, validate.
import { REQUEST_NOTE } from "../openapi/operation-docs/types.js"
import { Schema } from "effect"
import { since, type ApiVersion } from "../../domain/api-key/index.js"
import { findAsset } from "../../domain/chains/index.js"
import { utxoVbytes } from "../../domain/chains/fees.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount, formatDigits } from "../../domain/shared/money.js"
import type { ChangeTarget, UtxoTransferPlan, UtxoTransferRequest } from "../../domain/transaction-request/explicit-inputs.js"
import { createUtxoTransfer, previewUtxoTransfer } from "../../commands/utxo-transfers.js"
import { checks, type Decoded, shapes, typed } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { runCommand, runQuery } from "../use-case.js"
import { UtxoTransferPreview, UtxoTransferRequest as UtxoTransferAnswer } from "../wire/utxos.js"
import { addressOn } from "../inputs/address.js"
import { amountCheck } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { maxFeeOf } from "../inputs/max-fee.js"
import { shortNote as note } from "../inputs/note.js"
import { priority } from "../inputs/priority.js"
import {
  MAX_RECIPIENTS,
  MAX_SENDERS,
  recipientsCheck,
  parseRecipients,
  utxoNetworkOf,
  isObject,
  keyCount,
  everyOf,
} from "../transfers/utxo.js"

const sendersCheck = typed(
  shapes.list(Schema.Struct({ utxoId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)) }), 1, MAX_SENDERS),
  (v) =>
    everyOf(v, MAX_SENDERS, (s) => typeof s.utxoId === "string" && s.utxoId.length > 0 && s.utxoId.length <= 200 && keyCount(s, 1) === 1)
      ? undefined
      : `must be 1 to ${MAX_SENDERS} objects { utxoId }`,
)

const changeTarget = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))
const changeDataCheck = typed(
  Schema.Union([Schema.Struct({ address: changeTarget }), Schema.Struct({ vaultAccountId: changeTarget })]),
  (v) => {
    if (!isObject(v)) return "must be an object { address } or { vaultAccountId }"
    const keys = Object.keys(v)
    if (keys.length !== 1 || (keys[0] !== "address" && keys[0] !== "vaultAccountId"))
      return "must hold exactly one of address, vaultAccountId"
    const value = v[keys[0]]
    return typeof value === "string" && value.length > 0 && value.length <= 200 ? undefined : `${keys[0]} must be a non-empty string`
  },
)

const requestOf = (deps: ApiDeps, vaultId: string, item: Item, version: ApiVersion): UtxoTransferRequest | ApiError => {
  const n = utxoNetworkOf(deps, vaultId, item.assetId, version)
  if (isApiError(n)) return n
  if (item.changeData !== undefined && item.feePayer !== undefined)
    return errors.invalidData([
      { attribute: "changeData", message: "excludes feePayer" },
      { attribute: "feePayer", message: "excludes changeData" },
    ])
  if (item.feePayer !== undefined && item.gross === true)
    return errors.invalidData([
      { attribute: "gross", message: "excludes feePayer" },
      { attribute: "feePayer", message: "excludes gross" },
    ])
  const utxoIds = item.senders.map((s) => s.utxoId)
  if (new Set(utxoIds).size !== utxoIds.length) return invalidField("senders", "names an output more than once")
  const recipients = parseRecipients(n, item.recipients)
  if (isApiError(recipients)) return recipients
  const maxFee = maxFeeOf(item.maxFee, n)
  if (isApiError(maxFee)) return maxFee
  const changeData = item.changeData
  let change: ChangeTarget = { kind: "default" }
  if (typeof item.feePayer === "string") {
    const badPayer = addressOn(n, item.feePayer, "feePayer")
    if (badPayer !== undefined) return badPayer
    change = { kind: "feePayer", address: item.feePayer }
  } else if (changeData !== undefined && "address" in changeData) {
    const badChange = addressOn(n, changeData.address, "changeData.address")
    if (badChange !== undefined) return badChange
    change = { kind: "address", address: changeData.address }
  } else if (changeData !== undefined && "vaultAccountId" in changeData)
    change = { kind: "account", vaultAccountId: changeData.vaultAccountId }
  return {
    vaultId: vaultId as VaultId,
    network: n,
    utxoIds,
    recipients,
    feePriority: item.feePriority,
    maxFee,
    gross: item.gross === true,
    change,
    note: item.note,
  }
}

type Planned = Pick<UtxoTransferPlan, "recipients" | "change" | "fee"> & {
  readonly inputs: ReadonlyArray<{ transactionId: string; vout: number; address: string; amount: string; vaultAccountId: string | null }>
}

/** The preview's fields: what is spent (per account), sent, returned and paid. */
const previewJson = (r: UtxoTransferRequest, item: Item, p: Planned) => {
  const asset = findAsset(r.network.nativeAssetId)!
  const fmt = (x: bigint) => formatAmount(x, asset.decimals)
  return {
    assetId: asset.id,
    blockchain: r.network.blockchain,
    network: r.network.network,
    amountUnit: asset.symbol,
    feePriority: r.feePriority,
    gross: r.gross,
    // The named inputs come first, in the caller's order: their names are the request's own strings.
    senders: p.inputs.map((i, k) => ({
      utxoId: r.utxoIds[k] ?? `${i.transactionId}:${i.vout}`,
      address: i.address,
      vaultAccountId: i.vaultAccountId ?? r.vaultId,
      amount: formatDigits(i.amount, asset.decimals),
    })),
    recipients: p.recipients.map((x) => ({ address: x.address, amount: fmt(x.amount) })),
    ...(p.change !== null ? { change: { address: p.change.address, amount: fmt(p.change.amount) } } : {}),
    ...(r.change.kind === "feePayer" ? { feePayer: r.change.address } : {}),
    fee: { amount: fmt(p.fee), amountUnit: asset.symbol },
    ...(r.maxFee !== null && item.maxFee !== undefined ? { maxFee: item.maxFee } : {}),
    totalTransactionAmount: fmt(p.recipients.reduce((a, x) => a + x.amount, 0n)),
    sizeInVbytes: Number(utxoVbytes(p.inputs.length, p.recipients.length + (p.change !== null ? 1 : 0))),
    note: r.note ?? "",
  }
}

/** The body both operations take; `Item` is what it decodes to. */
const body = {
  required: {
    assetId: checks.string({ min: 1, max: 64 }),
    feePriority: priority,
    note,
    recipients: recipientsCheck(MAX_RECIPIENTS),
    senders: sendersCheck,
  },
  optional: {
    changeData: changeDataCheck,
    feePayer: checks.string({ min: 1, max: 200 }),
    gross: checks.boolean(),
    maxFee: amountCheck,
  },
}

type Item = Decoded<typeof body>

export const utxoTransferOperations: ReadonlyArray<Operation> = [
  operation({
    id: "createUtxoTransfer",
    doc: {
      summary: "Create UTXO transfer",
      description: `A transfer from named outputs (\`senders[].utxoId\`), change to \`changeData\` or \`feePayer\`, \`gross\` and \`maxFee\`. The outputs are reserved until the request ends; the fee is known exactly, so \`maxFee\` below it is refused at creation (400 \`MAX_FEE_EXCEEDED\`). ${REQUEST_NOTE}`,
      tags: ["UTXOs", "Transaction Requests"],
    },
    method: "POST",
    path: "/vaults/:vaultId/transaction-requests/utxo-transfer",
    scope: "withdraw",
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    body,
    answer: UtxoTransferAnswer,
    handle: async ({ params, item, requestId, apiVersion }, deps): Promise<OperationResult> => {
      const request = requestOf(deps, params.vaultId, item, apiVersion)
      if (isApiError(request)) return request
      const r = await runCommand(deps, createUtxoTransfer(request), { requestId })
      if (isApiError(r)) return r
      const draft = r.state._tag === "Active" ? r.state.requests.get(r.requestId)?.draft : undefined
      if (draft === undefined) return errors.internal()
      const accountOf = (address: string) =>
        r.state._tag === "Active" ? (r.state.accounts.address(draft.blockchain, draft.network, address)?.vaultAccountId ?? null) : null
      const planned: Planned = {
        inputs: draft.inputs.map((i) => ({ ...i, vaultAccountId: accountOf(i.address) })),
        recipients: draft.recipients.map((x) => ({ address: x.address, amount: BigInt(x.amount) })),
        change: draft.change === null ? null : { address: draft.change.address, amount: BigInt(draft.change.amount) },
        fee: BigInt(draft.maxFee),
      }
      return {
        status: 201,
        item: { transactionRequestId: r.requestId, transactionRequestStatus: "created", ...previewJson(request, item, planned) },
      }
    },
  }),
  operation({
    id: "validateUtxoTransfer",
    doc: {
      summary: "Validate UTXO transfer",
      description: "utxo-transfer's dry run: the same checks and the preview with its fee; nothing reserved or written.",
      tags: ["UTXOs"],
    },
    method: "POST",
    path: "/vaults/:vaultId/transaction-requests/utxo-transfer/validate",
    scope: "withdraw",
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    created: false,
    body,
    answer: UtxoTransferPreview,
    handle: async ({ params, item, apiVersion }, deps): Promise<OperationResult> => {
      const request = requestOf(deps, params.vaultId, item, apiVersion)
      if (isApiError(request)) return request
      const plan = await runQuery(deps, previewUtxoTransfer(request))
      if (isApiError(plan)) return plan
      return { status: 200, item: { isValid: true, ...previewJson(request, item, plan) } }
    },
  }),
]
