import { REQUEST_NOTE } from "../openapi/operation-docs/types.js"
import { findAsset, findAssetByContract, findNetwork, nativeAsset, type NetworkInfo } from "../../domain/chains/index.js"
import { until, type ApiVersion } from "../../domain/api-key/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { RequestEndpoint } from "../../domain/transaction-request/index.js"
import { checks, type Decoded, shapes, typed } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { VaultTokenTransferCreated, VaultTransferCreated } from "../wire/transaction-requests.js"
import { addressCheck, addressOn } from "../inputs/address.js"
import { amountCheck, amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { maxFeeOf } from "../inputs/max-fee.js"
import { note, requiredNote } from "../inputs/note.js"
import { vaultOn } from "../inputs/parties.js"
import { priority, priorityOptional } from "../inputs/priority.js"
import { networkTypeOf } from "../inputs/network.js"
import { type AddressPath, allowed, create, fmt, withNote, type Built } from "../transfers/create.js"

const strategy = checks.oneOf(["minimize-dust", "optimize-size", "minimize_dust", "optimize_size"])
const objects = <const K extends string>(max: number, keys: ReadonlyArray<K>, what: string) => {
  const names: ReadonlyArray<string> = keys
  return typed(shapes.list(shapes.strings(keys), 1, max), (v) =>
    Array.isArray(v) &&
    v.length >= 1 &&
    v.length <= max &&
    v.every(
      (r) =>
        typeof r === "object" &&
        r !== null &&
        keys.every((k) => typeof r[k] === "string") &&
        Object.keys(r).every((k) => names.includes(k)),
    )
      ? undefined
      : `must be 1 to ${max} objects ${what} with string values`,
  )
}
/** #17's body at either version, decoded (2024-05-09's has no senders or maxFee, its note optional). */
type VaultItem = Pick<Decoded<typeof widenedBody>, "recipients"> & Partial<Omit<Decoded<typeof widenedBody>, "recipients">>

const recipients = objects(100, ["address", "amount"], "{ address, amount }")
const senders = objects(1, ["address"], "{ address }")

/** The 2025-09-23 chains of the vault-level paths: EVM, UTXO (coins only), tron, solana; the vault's network type. */
const chainOf = (deps: ApiDeps, params: AddressPath, families: ReadonlyArray<NetworkInfo["family"]>): NetworkInfo | ApiError => {
  const n = findNetwork(params.blockchain, params.network)
  if (n === undefined || !families.includes(n.family))
    return invalidField("blockchain", `this endpoint takes ${families.join(", ")} chains`)
  const vault = vaultOn(deps, params.vaultId, n, "network", errors.resourceNotFound("vault"))
  return isApiError(vault) ? vault : n
}

const priorityRule = (n: NetworkInfo, item: { readonly feePriority?: unknown }): ApiError | undefined =>
  item.feePriority === undefined && !priorityOptional(n) ? errors.missingRequiredAttributes(["feePriority"]) : undefined

const parsedRecipients = (b: Built, item: VaultItem): Array<{ address: string; amount: bigint }> | ApiError => {
  const out: Array<{ address: string; amount: bigint }> = []
  for (const [i, r] of item.recipients.entries()) {
    const amount = amountIn(r.amount, b.asset, `recipients[${i}].amount`)
    if (isApiError(amount)) return amount
    const badTo = addressOn(b.network, r.address, `recipients[${i}].address`)
    if (badTo !== undefined) return badTo
    out.push({ address: r.address, amount })
  }
  return out
}

const nativeFee = (n: NetworkInfo, ceiling: bigint | null) =>
  ceiling === null ? {} : { maxFee: formatAmount(ceiling, nativeAsset(n.blockchain, n.network)!.decimals) }

/** #17 as 2024-05-09 has it: UTXO chains, from the whole vault. */
const utxoFirstVersion = async (deps: ApiDeps, params: AddressPath, item: VaultItem, requestId: string): Promise<OperationResult> => {
  const n = allowed(deps, params, "utxo", ["mainnet", "testnet"])
  if (isApiError(n)) return n
  return vaultTransfer(deps, params, item, requestId, n, null, null)
}

/** #17 at 2025-09-23: UTXO from the whole vault, or an account-based coin from the one sender listed. */
const widened = async (deps: ApiDeps, params: AddressPath, item: VaultItem, requestId: string): Promise<OperationResult> => {
  const n = chainOf(deps, params, ["utxo", "evm", "tron", "solana"])
  if (isApiError(n)) return n
  const missing = priorityRule(n, item)
  if (missing !== undefined) return missing
  const ceiling = maxFeeOf(item.maxFee, n)
  if (isApiError(ceiling)) return ceiling
  if (n.family === "utxo") {
    if (item.senders !== undefined)
      return invalidField("senders", "a UTXO request spends from the whole vault; senders are for account-based chains")
    return vaultTransfer(deps, params, item, requestId, n, null, ceiling)
  }
  if (item.senders === undefined) return errors.missingRequiredAttributes(["senders"])
  if (item.recipients.length !== 1) return invalidField("recipients", "an account-based transfer has exactly one recipient")
  if (item.prepareStrategy !== undefined) return invalidField("prepareStrategy", "applies to UTXO chains only")
  const sender = item.senders[0]!.address
  return vaultTransfer(deps, params, item, requestId, n, sender, ceiling)
}

const vaultTransfer = async (
  deps: ApiDeps,
  params: AddressPath,
  item: VaultItem,
  requestId: string,
  n: NetworkInfo,
  sender: string | null,
  ceiling: bigint | null,
): Promise<OperationResult> => {
  const b = { network: n, asset: findAsset(n.nativeAssetId)! }
  const to = parsedRecipients(b, item)
  if (isApiError(to)) return to
  const endpoint: RequestEndpoint = sender === null ? "utxo" : "coin"
  const r = await create(deps, requestId, params.vaultId, endpoint, b, sender, to, item, { ceiling })
  if (isApiError(r)) return r
  const from =
    sender === null ? undefined : r.state._tag === "Active" ? (r.state.requests.get(r.requestId)?.draft.sender ?? sender) : sender
  return {
    status: 201,
    item: {
      ...(item.feePriority !== undefined ? { feePriority: item.feePriority } : {}),
      recipients: to.map((x) => ({ address: x.address, amount: fmt(b, x.amount) })),
      ...(from !== undefined ? { senders: [{ address: from }] } : {}),
      totalTransactionAmount: fmt(
        b,
        to.reduce((a, x) => a + x.amount, 0n),
      ),
      transactionRequestId: r.requestId,
      transactionRequestStatus: "created",
      ...withNote(item),
      ...nativeFee(n, ceiling),
    },
  }
}

const firstBody = {
  required: { feePriority: priority, recipients },
  optional: { prepareStrategy: strategy, note },
}
const widenedBody = {
  required: { recipients, note: requiredNote },
  optional: { feePriority: priority, prepareStrategy: strategy, maxFee: amountCheck, senders },
}

const tokenBody = {
  required: {
    amount: amountCheck,
    contractAddress: addressCheck,
    senderAddress: addressCheck,
    recipientAddress: addressCheck,
    note: requiredNote,
  },
  optional: { feePriority: priority, maxFee: amountCheck },
}

const tokenTransfer = async (
  { params, item, requestId }: { params: AddressPath; item: Decoded<typeof tokenBody>; requestId: string },
  deps: ApiDeps,
): Promise<OperationResult> => {
  const n = chainOf(deps, params, ["evm", "tron", "solana"])
  if (isApiError(n)) return n
  const missing = priorityRule(n, item)
  if (missing !== undefined) return missing
  const token = findAssetByContract(n.blockchain, n.network, item.contractAddress)
  if (token === undefined) return invalidField("contractAddress", `is not a supported token contract on ${n.blockchain}/${n.network}`)
  const b = { network: n, asset: token }
  const amount = amountIn(item.amount, token)
  if (isApiError(amount)) return amount
  const badTo = addressOn(n, item.recipientAddress, "recipientAddress")
  if (badTo !== undefined) return badTo
  const ceiling = maxFeeOf(item.maxFee, n)
  if (isApiError(ceiling)) return ceiling
  const to = [{ address: item.recipientAddress, amount }]
  const r = await create(deps, requestId, params.vaultId, "token", b, item.senderAddress, to, item, { ceiling })
  if (isApiError(r)) return r
  const from = r.state._tag === "Active" ? (r.state.requests.get(r.requestId)?.draft.sender ?? item.senderAddress) : item.senderAddress
  return {
    status: 201,
    item: {
      ...(item.feePriority !== undefined ? { feePriority: item.feePriority } : {}),
      recipients: to.map((x) => ({ address: x.address, amount: fmt(b, x.amount) })),
      senders: { address: from },
      tokenTypeSpecificData: { contractAddress: token.type === "TOKEN" ? token.contract : "" },
      transactionRequestId: r.requestId,
      transactionRequestStatus: "created",
      ...withNote(item),
      ...nativeFee(n, ceiling),
    },
  }
}

export const vaultTransferOperations: ReadonlyArray<Operation> = [
  operation({
    id: "createUtxoTransactionRequest",
    doc: {
      summary: "Create transaction request from vault",
      description: `A withdrawal from the whole vault to many recipients (UTXO chains; at 2025-09-23 also EVM, tron and solana coins from one listed sender). The simulator chooses the outputs. ${REQUEST_NOTE}`,
      tags: ["Transaction Requests"],
    },
    method: "POST",
    path: "/vaults/:vaultId/:blockchain/:network/transaction-requests",
    // 2026-03-20 replaced it with multiple-transfer and single-transfer (diff row #17).
    versions: until("2026-03-20"),
    scope: "withdraw",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    body: firstBody,
    bodySince: { "2025-09-23": widenedBody },
    answer: VaultTransferCreated,
    handle: ({ params, item, requestId, apiVersion }, deps) =>
      (apiVersion as ApiVersion) === "2024-05-09"
        ? utxoFirstVersion(deps, params, item, requestId)
        : widened(deps, params, item, requestId),
  }),
  operation({
    id: "createVaultTokenTransactionRequest",
    doc: {
      summary: "Create token transaction request",
      description: `A token withdrawal from \`senderAddress\` (EVM, tron, solana) with \`contractAddress\` and \`maxFee\`. ${REQUEST_NOTE}`,
      tags: ["Transaction Requests"],
    },
    method: "POST",
    path: "/vaults/:vaultId/:blockchain/:network/token-transaction-requests",
    versions: ["2025-09-23"],
    scope: "withdraw",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    body: tokenBody,
    answer: VaultTokenTransferCreated,
    handle: tokenTransfer,
  }),
]
