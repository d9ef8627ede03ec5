// Endpoints #15–#21: transaction request detail and the seven create endpoints (withdrawals).
import { findAsset, findAssetByContract, findNetwork, type AssetInfo, type FeePriority } from "../../domain/chains/index.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount, parsePositiveAmount } from "../../domain/shared/money.js"
import type { RequestEndpoint, TxRequestStatus } from "../../domain/transaction-request/index.js"
import type { FeeState } from "../../domain/transaction-request/estimate.js"
import { createTxRequest, type CreateRequestInput } from "../../commands/transaction-requests.js"
import { chainKey } from "../../chain-sim/index.js"
import { freeUnits } from "../../chain-sim/tron.js"
import { until } from "../../domain/api-key/index.js"
import { checks, type JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import type { Operation, OperationResult } from "../operation.js"
import { runCommand } from "../use-case.js"
import { addressOn } from "../inputs/address.js"
import { amountCheck, amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { note } from "../inputs/note.js"
import { vaultOn } from "../inputs/parties.js"
import { priority } from "../inputs/priority.js"
import { networkTypeOf } from "./addresses.js"

/** The spec's twelve statuses, one wire string per state. */
export const wireStatus: { readonly [S in TxRequestStatus]: string } = {
  Created: "created",
  AwaitingApproval: "await-approval",
  AwaitingApprovalL2: "await-approval-l2",
  Pending: "pending",
  Prepared: "prepared",
  Signed: "signed",
  Broadcasted: "broadcasted",
  Mined: "mined",
  MinedWithErrors: "mined-with-errors",
  Success: "success",
  Failed: "failed",
  Rejected: "rejected",
}

export interface Built {
  readonly network: NonNullable<ReturnType<typeof findNetwork>>
  readonly asset: AssetInfo
}

export const allowed = (
  deps: ApiDeps,
  params: Record<string, string>,
  chains: ReadonlyArray<string> | "utxo" | "evm",
  networks: ReadonlyArray<string>,
): Built["network"] | ApiError => {
  const n = findNetwork(params.blockchain ?? "", params.network ?? "")
  const familyOk =
    n !== undefined && (chains === "utxo" ? n.family === "utxo" : chains === "evm" ? n.family === "evm" : chains.includes(n.blockchain))
  if (n === undefined || !familyOk || !networks.includes(n.network))
    return invalidField(
      "blockchain",
      `this endpoint takes ${Array.isArray(chains) ? chains.join(", ") : `${chains} chains`} on ${networks.join(", ")}`,
    )
  const vault = vaultOn(deps, params.vaultId ?? "", n, "network", errors.resourceNotFound("vault"))
  return isApiError(vault) ? vault : n
}

/** Creates the request (under the auto policy the simulator broadcasts it by itself); the answer always says `created`. */
export const create = async (
  deps: ApiDeps,
  requestId: string,
  vaultId: string,
  endpoint: RequestEndpoint,
  b: Built,
  sender: string | null,
  recipients: ReadonlyArray<{ address: string; amount: bigint }>,
  item: JsonObject,
  fee: { readonly ceiling: bigint | null } = { ceiling: null },
) => {
  const input: CreateRequestInput = {
    vaultId: vaultId as VaultId,
    endpoint,
    network: b.network,
    asset: b.asset,
    sender,
    recipients,
    feePriority: (item.feePriority as FeePriority | undefined) ?? null,
    feeLimit: item.feeLimit === undefined ? null : BigInt((parseAmountRaw(item.feeLimit as string, 6) ?? 0n).toString()),
    note: (item.note as string | undefined) ?? null,
    prepareStrategy:
      item.prepareStrategy === undefined ? null : (String(item.prepareStrategy).replace("_", "-") as "minimize-dust" | "optimize-size"),
    ...(fee.ceiling !== null ? { feeCeiling: fee.ceiling } : {}),
  }
  // The fee ceiling is checked against what mining now would cost, from the same state settlement reads.
  const feeState = fee.ceiling !== null ? feeStateFor(deps, b.network, sender) : undefined
  return runCommand(deps, createTxRequest(input, feeState), { requestId })
}

/**
 * What mining now would meet for the address that pays a fee (estimate.ts's FeeState): tron's free bandwidth it
 * used in the last day (as settlement counts it) and the staked units it has free (as the chain's execution takes them).
 */
export const feeStateFor = (deps: ApiDeps, n: Built["network"], payer: string | null): FeeState => {
  const now = deps.sim.clock.now()
  const used = deps.sim.models.txRequests.feeStateAt(payer, now)
  if (payer === null || n.family !== "tron") return used
  return { ...used, staked: freeUnits(n, deps.sim.models.tron.ledger(chainKey(n.blockchain, n.network), undefined), payer, now) }
}

const parseAmountRaw = (s: string, decimals: number) => {
  const r = parsePositiveAmount(s, decimals)
  return r.ok ? r.value : undefined
}

const accountBased = (
  deps: ApiDeps,
  params: Record<string, string>,
  chains: ReadonlyArray<string> | "evm",
  networks: ReadonlyArray<string>,
  item: JsonObject,
  tokenAttr?: string,
): Built | ApiError => {
  const n = allowed(deps, params, chains, networks)
  if (isApiError(n)) return n
  const native = findAsset(n.nativeAssetId)!
  if (tokenAttr === undefined) return { network: n, asset: native }
  const token = findAssetByContract(n.blockchain, n.network, item[tokenAttr] as string)
  return token === undefined
    ? invalidField(tokenAttr, `is not a supported token contract on ${n.blockchain}/${n.network}`)
    : { network: n, asset: token }
}

type Shape = (
  b: Built,
  id: string,
  sender: string | null,
  recipients: ReadonlyArray<{ address: string; amount: bigint }>,
  item: JsonObject,
) => unknown

const addressCreate = (
  id: string,
  path: string,
  endpoint: RequestEndpoint,
  chains: ReadonlyArray<string> | "evm",
  networks: ReadonlyArray<string>,
  body: Operation["body"],
  tokenAttr: string | undefined,
  shape: Shape,
): Operation => ({
  id,
  method: "POST",
  // 2025-09-23 folded these into the vault-level paths, 2026-03-20 into single-transfer (diff rows #18–#21).
  versions: until("2025-09-23"),
  path,
  scope: "withdraw",
  vaultParam: "vaultId",
  networkType: networkTypeOf,
  ...(body !== undefined ? { body } : {}),
  handle: async ({ params, item, requestId }, deps): Promise<OperationResult> => {
    const b = accountBased(deps, params, chains, networks, item, tokenAttr)
    if (isApiError(b)) return b
    const amount = amountIn(item.amount, b.asset)
    if (isApiError(amount)) return amount
    const badTo = addressOn(b.network, item.recipientAddress, "recipientAddress")
    if (badTo !== undefined) return badTo
    if (item.feeLimit !== undefined && parseAmountRaw(item.feeLimit as string, 6) === undefined)
      return invalidField("feeLimit", "must be a positive TRX amount")
    const sender = params.address ?? params.senderAddress ?? ""
    const recipients = [{ address: item.recipientAddress as string, amount }]
    const r = await create(deps, requestId, params.vaultId!, endpoint, b, sender, recipients, item)
    if (isApiError(r)) return r
    return {
      status: 201,
      item: shape(
        b,
        r.requestId,
        r.state._tag === "Active" ? (r.state.requests.get(r.requestId)?.draft.sender ?? sender) : sender,
        recipients,
        item,
      ),
    }
  },
})

export const fmt = (b: Built, amount: bigint) => formatAmount(amount, b.asset.decimals)
export const withNote = (item: JsonObject) => (item.note !== undefined ? { note: item.note } : {})

export const transactionRequestOperations: ReadonlyArray<Operation> = [
  addressCreate(
    "createCoinTransactionRequest",
    "/vaults/:vaultId/:blockchain/:network/addresses/:address/transaction-requests",
    "coin",
    ["ethereum", "binance-smart-chain"],
    ["mainnet", "mordor", "testnet", "sepolia"],
    { required: { amount: amountCheck, feePriority: priority, recipientAddress: checks.string({ min: 1, max: 200 }) }, optional: { note } },
    undefined,
    (b, id, sender, recipients, item) => ({
      feePriority: item.feePriority,
      recipients: recipients.map((x) => ({ address: x.address, amount: fmt(b, x.amount) })),
      senders: { address: sender },
      transactionRequestId: id,
      transactionRequestStatus: "created",
      ...withNote(item),
    }),
  ),
  addressCreate(
    "createTokenTransactionRequest",
    "/vaults/:vaultId/:blockchain/:network/addresses/:senderAddress/token-transaction-requests",
    "token",
    ["ethereum", "binance-smart-chain"],
    ["mainnet", "testnet", "sepolia"],
    {
      required: {
        amount: amountCheck,
        feePriority: priority,
        recipientAddress: checks.string({ min: 1, max: 200 }),
        tokenIdentifier: checks.string({ min: 1, max: 200 }),
      },
      optional: { note },
    },
    "tokenIdentifier",
    (b, id, sender, recipients, item) => ({
      feePriority: item.feePriority,
      recipients: recipients.map((x) => ({ address: x.address, amount: fmt(b, x.amount) })),
      senders: { address: sender },
      tokenTypeSpecificData: { contractAddress: b.asset.type === "TOKEN" ? b.asset.contract : "" },
      transactionRequestId: id,
      transactionRequestStatus: "created",
      ...withNote(item),
    }),
  ),
  addressCreate(
    "createFeelessTransactionRequest",
    "/vaults/:vaultId/:blockchain/:network/addresses/:senderAddress/feeless-transaction-requests",
    "feeless",
    ["tron"],
    ["mainnet", "nile"],
    { required: { amount: amountCheck, recipientAddress: checks.string({ min: 1, max: 200 }) }, optional: { note } },
    undefined,
    (b, id, sender, recipients, item) => ({
      recipient: recipients.map((x) => ({ address: x.address, amount: fmt(b, x.amount), unit: b.asset.unit })),
      sender: { address: sender },
      totalAmount: {
        unit: b.asset.unit,
        value: fmt(
          b,
          recipients.reduce((a, x) => a + x.amount, 0n),
        ),
      },
      transactionRequestId: id,
      transactionRequestStatus: "created",
      ...withNote(item),
    }),
  ),
  addressCreate(
    "createFeelessTokenTransactionRequest",
    "/vaults/:vaultId/:blockchain/:network/addresses/:senderAddress/feeless-token-transaction-requests",
    "feeless-token",
    ["tron"],
    ["mainnet", "nile"],
    {
      required: {
        amount: amountCheck,
        recipientAddress: checks.string({ min: 1, max: 200 }),
        tokenIdentifier: checks.string({ min: 1, max: 200 }),
      },
      optional: { feeLimit: amountCheck, note },
    },
    "tokenIdentifier",
    (b, id, sender, recipients, item) => ({
      recipient: recipients.map((x) => ({ address: x.address, amount: fmt(b, x.amount), unit: b.asset.unit })),
      sender: { address: sender },
      // The fee limit as sent; none sent, none echoed (the call then burns what it takes, within the fee held back).
      tokenTypeSpecificData: {
        contractAddress: b.asset.type === "TOKEN" ? b.asset.contract : "",
        ...(item.feeLimit !== undefined ? { feeLimit: item.feeLimit as string } : {}),
        symbol: b.asset.symbol,
      },
      transactionRequestId: id,
      transactionRequestStatus: "created",
      ...withNote(item),
    }),
  ),
]

export const requestJson = (r: NonNullable<ReturnType<ApiDeps["sim"]["models"]["txRequests"]["find"]>>, asOf: bigint | undefined) => {
  const asset = findAsset(r.draft.assetId)!
  // A batch's recipients each name their asset; its total is what it sends of its own asset, the chain's coin.
  const of = (x: { readonly assetId?: string }) => (x.assetId === undefined ? asset : findAsset(x.assetId)!)
  const total = r.draft.recipients.reduce((a, x) => a + (of(x).id === asset.id ? BigInt(x.amount) : 0n), 0n)
  return {
    transactionRequestId: r.draft.requestId,
    vaultId: r.draft.vaultId,
    blockchain: r.draft.blockchain,
    network: r.draft.network,
    feePriority: r.draft.feePriority ?? "standard",
    transactionType: r.draft.endpoint === "batch" ? "batch" : asset.type === "TOKEN" ? "token" : "coin",
    unit: asset.unit,
    totalTransactionAmount: formatAmount(total, asset.decimals),
    transactionId: r.draft.transactionId,
    additionalDetails: r.draft.note ?? "",
    transactionRequestStatus: wireStatus[r.status.at(asOf) ?? "Created"],
    recipients: r.draft.recipients.map((x) => ({
      address: x.address,
      amount: formatAmount(BigInt(x.amount), of(x).decimals),
      unit: of(x).unit,
    })),
  }
}
