// POST /vaults/{vaultId}/approximate-fee (2026-03-20, spec §3.4.9): the fee a request of that type would pay if
// mined now, from the same draft and spending rules its creation and settlement use (domain estimate.ts), and
// the most it may cost (what the request would hold back). Writes nothing.
import { since, type ApiVersion } from "../../domain/api-key/index.js"
import { findAsset, findNetwork, isUtxo, nativeAsset, type FeePriority } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { estimateFee } from "../../domain/transaction-request/estimate.js"
import { checks, type FieldCheck, type JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { ApiError, errors, isApiError } from "../errors.js"
import type { Operation, OperationResult } from "../operation.js"
import { ApproximateFee } from "../wire/approximate-fee.js"
import { priorityOptional } from "./single-transfer.js"
import { amountCheck, bad, checkAddress, parseAmount, priority } from "./transaction-requests.js"
import { unknownVault } from "./vault-account-reads.js"

const TYPES = ["single", "multiple", "batch"] as const
type TransactionType = (typeof TYPES)[number]

const addressCheck = checks.string({ min: 1, max: 200 })
const recipientsCheck: FieldCheck = (v) =>
  Array.isArray(v) && v.length >= 1 && v.length <= 150 && v.every((r) => typeof r === "object" && r !== null && !Array.isArray(r))
    ? undefined
    : "must be 1 to 150 objects { address, amount, assetId? }"

/** Types answered so far, and how to ask for each; the others get a 400 saying so. */
const SUPPORTED = "transactionType single (a transfer from one address, without feePayer)"

const unsupported = (what: string) =>
  errors.invalidData([{ attribute: what === "feePayer" ? "feePayer" : "transactionType", message: `${what === "feePayer" ? "gas sponsorship (single with feePayer)" : what} is not estimated yet; supported: ${SUPPORTED}` }])

type Sender = { readonly address: string; readonly vaultAccountId: string }

/** The sender in this vault (in `vaultAccountId` when one is named; the default account's id is the vault's). */
const senderOf = (deps: ApiDeps, vaultId: string, blockchain: string, network: string, item: JsonObject): Sender | ApiError => {
  const from = deps.sim.models.holdings.address(blockchain, network, item.fromAddress as string, undefined)
  if (from === undefined || from.facts.vaultId !== vaultId) return errors.resourceNotFound("fromAddress in this vault")
  const owner = from.facts.vaultAccountId ?? vaultId
  if (item.vaultAccountId !== undefined && item.vaultAccountId !== owner) {
    const account = item.vaultAccountId === vaultId ? undefined : deps.sim.models.holdings.account(item.vaultAccountId as string, undefined)
    return item.vaultAccountId !== vaultId && (account === undefined || account.vaultId !== vaultId) ? errors.resourceNotFound("vault account") : errors.resourceNotFound("fromAddress in this vault account")
  }
  return { address: from.facts.address, vaultAccountId: owner }
}

const single = (deps: ApiDeps, vaultId: string, item: JsonObject, version: ApiVersion): OperationResult => {
  const missing = ["amount", "assetId", "fromAddress"].filter((k) => item[k] === undefined)
  if (missing.length > 0) return errors.missingRequiredAttributes(missing)
  const asset = findAsset(item.assetId as string)
  if (asset === undefined) return errors.resourceNotFound("asset")
  if (isUtxo(asset.blockchain)) return bad("assetId", "a single transfer is for account-based chains; estimate a UTXO transfer with transactionType multiple")
  const n = findNetwork(asset.blockchain, asset.network)!
  const needed = [...(item.feePriority === undefined && !priorityOptional(n) ? ["feePriority"] : []), ...(item.toAddress === undefined && n.family === "evm" ? ["toAddress"] : [])]
  if (needed.length > 0) return errors.missingRequiredAttributes(needed)
  const vault = deps.sim.models.workspace.vaultsById.get(vaultId)
  if (vault === undefined) return unknownVault(version)
  if (vault.profile.type !== n.networkType)
    return new ApiError(400, "network_not_allowed_for_vault", `A ${vault.profile.type} vault cannot use ${n.blockchain}/${n.network}.`, [{ attribute: "assetId", message: "is on a network of the other type" }])
  const amount = parseAmount(item.amount, asset)
  if (isApiError(amount)) return amount
  if (item.toAddress !== undefined) {
    const badTo = checkAddress(n, item.toAddress, "toAddress")
    if (badTo !== undefined) return badTo
  }
  const sender = senderOf(deps, vaultId, n.blockchain, n.network, item)
  if (isApiError(sender)) return sender
  const feePriority = (item.feePriority as FeePriority | undefined) ?? null
  const estimate = estimateFee(
    {
      vaultId: vaultId as VaultId,
      endpoint: "single-transfer",
      network: n,
      asset,
      sender: sender.address,
      // The recipient does not change an account-based fee; an estimate may leave it out (spec: toAddress for EVM).
      recipients: [{ address: (item.toAddress as string | undefined) ?? "", amount }],
      feePriority,
      feeLimit: null,
      note: null,
      prepareStrategy: null,
    },
    deps.sim.models.txRequests.feeStateAt(sender.address, deps.sim.clock.now()),
  )
  const native = nativeAsset(n.blockchain, n.network)!
  const fee = (x: bigint) => ({ amount: formatAmount(x, native.decimals), amountUnit: native.unit, assetId: native.id })
  return {
    status: 200,
    item: {
      transactionType: "single",
      blockchain: n.blockchain,
      network: n.network,
      assetId: asset.id,
      vaultAccountId: sender.vaultAccountId,
      fromAddress: sender.address,
      feePriority: feePriority ?? "standard",
      fee: fee(estimate.fee),
      maxFee: fee(estimate.maxFee),
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
        note: checks.string({ max: 250 }),
        maxFee: amountCheck,
      },
    },
    answer: ApproximateFee,
    handle: ({ params, item, apiVersion }, deps) => {
      const type = item.transactionType as TransactionType
      if (type !== "single") return unsupported(`transactionType ${type}`)
      if (item.feePayer !== undefined) return unsupported("feePayer")
      return single(deps, params.vaultId!, item, apiVersion)
    },
  },
]
