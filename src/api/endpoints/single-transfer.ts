// #16 single-transfer: a withdrawal from one address of a vault account, coins and tokens (by `assetId`) on every
// account-based chain. From 2025-09-23 on `note` is required, `maxFee` caps the fee and `feePriority` is required
// except on tron and solana (spec 2026 §3.4.1); 2024-05-09 answers as it always did.
import { REQUEST_NOTE } from "../openapi/operation-docs/types.js"
import { findAsset, findNetwork, isUtxo, nativeAsset, type AssetInfo, type NetworkInfo } from "../../domain/chains/index.js"
import type { ApiVersion } from "../../domain/api-key/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { checks, type Decoded } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { type Operation, operation } from "../operation.js"
import { SingleTransferCreated } from "../wire/transaction-requests.js"
import { addressCheck, addressOn } from "../inputs/address.js"
import { amountCheck, amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { maxFeeOf } from "../inputs/max-fee.js"
import { note, requiredNote } from "../inputs/note.js"
import { senderIn, unknownVault, vaultAt, vaultOn } from "../inputs/parties.js"
import { priority, priorityOptional } from "../inputs/priority.js"
import { create, fmt, withNote, type Built } from "../transfers/create.js"

const idCheck = checks.string({ min: 1 })

interface SingleInput {
  readonly b: Built
  readonly vaultAccountId: string
  readonly from: string
  readonly to: string
  readonly amount: bigint
  readonly ceiling: bigint | null
}

/**
 * The checks every 2025/2026 transfer from one address shares (single-transfer, its fee estimate): the asset and
 * its chain, the vault and its network type, the sender in that vault account, the amount, the recipient, the
 * priority rule and the fee ceiling. The vault's default account (its id is the vault's) holds the vault's own addresses.
 */
const singleInput = (deps: ApiDeps, vaultId: string, item: Item, version: ApiVersion): SingleInput | ApiError => {
  const asset = findAsset(item.assetId)
  if (asset === undefined) return errors.resourceNotFound("asset")
  const n = findNetwork(asset.blockchain, asset.network)!
  if (isUtxo(asset.blockchain))
    return invalidField("assetId", "single transfers are for account-based chains; use multiple-transfer or utxo-transfer for this asset")
  if (item.feePriority === undefined && !priorityOptional(n)) return errors.missingRequiredAttributes(["feePriority"])
  const vault = vaultOn(deps, vaultId, n, "assetId", unknownVault(version))
  if (isApiError(vault)) return vault
  const from = senderOf(deps, vaultId, n, item)
  return isApiError(from) ? from : withAmounts(n, asset, item, from)
}

/** The sender: `fromAddress` of the vault account `vaultAccountId` names (the vault's id: its default account). */
const senderOf = (deps: ApiDeps, vaultId: string, n: NetworkInfo, item: Item): { vaultAccountId: string; from: string } | ApiError => {
  const s = senderIn(deps, vaultId, n, item.fromAddress, item.vaultAccountId, "fromAddress")
  return isApiError(s) ? s : { vaultAccountId: s.vaultAccountId, from: s.address }
}

const withAmounts = (
  n: NetworkInfo,
  asset: AssetInfo,
  item: Item,
  who: { vaultAccountId: string; from: string },
): SingleInput | ApiError => {
  const amount = amountIn(item.amount, asset)
  if (isApiError(amount)) return amount
  const badTo = addressOn(n, item.toAddress, "toAddress")
  if (badTo !== undefined) return badTo
  const ceiling = maxFeeOf(item.maxFee, n)
  if (isApiError(ceiling)) return ceiling
  return { b: { network: n, asset }, ...who, to: item.toAddress, amount, ceiling }
}

/** 2024-05-09's checks, in its order (its answers stay as they were). */
const firstVersion = (deps: ApiDeps, vaultId: string, item: Item): SingleInput | ApiError => {
  const asset = findAsset(item.assetId)
  if (asset === undefined) return errors.resourceNotFound("asset")
  const n = findNetwork(asset.blockchain, asset.network)!
  if (isUtxo(asset.blockchain))
    return invalidField("assetId", "single transfers are for account-based chains; use the UTXO endpoint for this asset")
  const vault = vaultAt(deps, vaultId, errors.resourceNotFound("vault"))
  if (isApiError(vault)) return vault
  const from = senderOf(deps, vaultId, n, item)
  return isApiError(from) ? from : withAmounts(n, asset, item, from)
}

const required = { vaultAccountId: idCheck, assetId: idCheck, fromAddress: addressCheck, toAddress: addressCheck, amount: amountCheck }

const firstBody = { required, optional: { feePriority: priority, note } }
const laterBody = { required: { ...required, note: requiredNote }, optional: { feePriority: priority, maxFee: amountCheck } }
/** What either version's body decodes to (2024-05-09's has no maxFee, its note optional). */
type Item = Decoded<typeof firstBody> & { readonly maxFee?: string | undefined }

export const singleTransferOperations: ReadonlyArray<Operation> = [
  operation({
    id: "createSingleTransferRequest",
    doc: {
      summary: "Create single transfer request",
      description: `A withdrawal of a coin or token from one address (account-based chains). ${REQUEST_NOTE} From 2025-09-23 \`note\` is required; \`maxFee\` "0" means no ceiling.`,
      tags: ["Transaction Requests"],
    },
    method: "POST",
    path: "/vaults/:vaultId/transaction-requests/single-transfer",
    scope: "withdraw",
    vaultParam: "vaultId",
    body: firstBody,
    bodySince: { "2025-09-23": laterBody },
    answer: SingleTransferCreated,
    handle: async ({ params, item, requestId, apiVersion }, deps) => {
      const vaultId = params.vaultId
      const s = apiVersion === "2024-05-09" ? firstVersion(deps, vaultId, item) : singleInput(deps, vaultId, item, apiVersion)
      if (isApiError(s)) return s
      const r = await create(deps, requestId, vaultId, "single-transfer", s.b, s.from, [{ address: s.to, amount: s.amount }], item, {
        ceiling: s.ceiling,
      })
      if (isApiError(r)) return r
      return {
        status: 201,
        item: {
          transactionRequestId: r.requestId,
          transactionRequestStatus: "created",
          vaultAccountId: s.vaultAccountId,
          assetId: s.b.asset.id,
          fromAddress: s.from,
          toAddress: s.to,
          amount: fmt(s.b, s.amount),
          feePriority: item.feePriority ?? "standard",
          ...withNote(item),
          ...(s.ceiling !== null
            ? { maxFee: formatAmount(s.ceiling, nativeAsset(s.b.network.blockchain, s.b.network.network)!.decimals) }
            : {}),
        },
      }
    },
  }),
]
