// Endpoints #15–#21: transaction request detail and the seven create endpoints (withdrawals).
import { findAsset, findAssetByContract } from "../../domain/chains/index.js"
import type { RequestEndpoint } from "../../domain/transaction-request/index.js"
import { until } from "../../domain/api-key/index.js"
import { checks, type JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, isApiError } from "../errors.js"
import type { Operation, OperationResult } from "../operation.js"
import { addressOn } from "../inputs/address.js"
import { amountCheck, amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { note } from "../inputs/note.js"
import { priority } from "../inputs/priority.js"
import { networkTypeOf } from "../inputs/network.js"
import { type Built, allowed, create, fmt, parseAmountRaw, withNote } from "../transfers/create.js"
import { CoinRequestCreated, FeelessRequestCreated, FeelessTokenRequestCreated, TokenRequestCreated } from "../wire/transaction-requests.js"

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
  answer: NonNullable<Operation["answer"]>,
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
  answer,
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
    CoinRequestCreated,
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
    TokenRequestCreated,
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
    FeelessRequestCreated,
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
    FeelessTokenRequestCreated,
  ),
]
