// Endpoints #15–#21: transaction request detail and the seven create endpoints (withdrawals).
import { REQUEST_NOTE } from "../openapi/operation-docs/types.js"
import { type FeePriority, findAsset, findAssetByContract } from "../../domain/chains/index.js"
import type { RequestEndpoint } from "../../domain/transaction-request/index.js"
import { until } from "../../domain/api-key/index.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { addressOn } from "../inputs/address.js"
import { amountCheck, amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { note } from "../inputs/note.js"
import { priority } from "../inputs/priority.js"
import { networkTypeOf } from "../inputs/network.js"
import { type AddressPath, type Built, allowed, create, fmt, parseAmountRaw, withNote } from "../transfers/create.js"
import { CoinRequestCreated, FeelessRequestCreated, FeelessTokenRequestCreated, TokenRequestCreated } from "../wire/transaction-requests.js"

/** What the four address-path creates take (each its own body; `tokenIdentifier` on the token ones), decoded. */
interface AddressItem {
  readonly amount: string
  readonly recipientAddress: string
  readonly tokenIdentifier?: string | undefined
  readonly feePriority?: FeePriority | undefined
  readonly feeLimit?: string | undefined
  readonly note?: string | undefined
}

/** Their path: the vault, the chain and the sender (`address` or `senderAddress`). */
type AddressParams = AddressPath & { readonly address?: string; readonly senderAddress?: string }

const accountBased = (
  deps: ApiDeps,
  params: AddressParams,
  chains: ReadonlyArray<string> | "evm",
  networks: ReadonlyArray<string>,
  item: AddressItem,
  token: boolean,
): Built | ApiError => {
  const n = allowed(deps, params, chains, networks)
  if (isApiError(n)) return n
  const native = findAsset(n.nativeAssetId)!
  if (!token) return { network: n, asset: native }
  const asset = findAssetByContract(n.blockchain, n.network, item.tokenIdentifier ?? "") // required by the token bodies
  return asset === undefined
    ? invalidField("tokenIdentifier", `is not a supported token contract on ${n.blockchain}/${n.network}`)
    : { network: n, asset }
}

type Shape = (
  b: Built,
  id: string,
  sender: string | null,
  recipients: ReadonlyArray<{ address: string; amount: bigint }>,
  item: AddressItem,
) => unknown

/** What the four operations share besides their path, body and answer. */
const addressRoute = {
  method: "POST",
  // 2025-09-23 folded these into the vault-level paths, 2026-03-20 into single-transfer (diff rows #18–#21).
  versions: until("2025-09-23"),
  scope: "withdraw",
  vaultParam: "vaultId",
  networkType: networkTypeOf,
} as const

/** The handler of an address-path create: its chains, whether it sends a token, its answer's shape. */
const addressCreate =
  (endpoint: RequestEndpoint, chains: ReadonlyArray<string> | "evm", networks: ReadonlyArray<string>, token: boolean, shape: Shape) =>
  async (
    { params, item, requestId }: { readonly params: AddressParams; readonly item: AddressItem; readonly requestId: string },
    deps: ApiDeps,
  ): Promise<OperationResult> => {
    const b = accountBased(deps, params, chains, networks, item, token)
    if (isApiError(b)) return b
    const amount = amountIn(item.amount, b.asset)
    if (isApiError(amount)) return amount
    const badTo = addressOn(b.network, item.recipientAddress, "recipientAddress")
    if (badTo !== undefined) return badTo
    if (item.feeLimit !== undefined && parseAmountRaw(item.feeLimit, 6) === undefined)
      return invalidField("feeLimit", "must be a positive TRX amount")
    const sender = params.address ?? params.senderAddress ?? ""
    const recipients = [{ address: item.recipientAddress, amount }]
    const r = await create(deps, requestId, params.vaultId, endpoint, b, sender, recipients, item)
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
  }

export const transactionRequestOperations: ReadonlyArray<Operation> = [
  operation({
    ...addressRoute,
    id: "createCoinTransactionRequest",
    doc: {
      summary: "Create coin transaction request from address",
      description: `A coin withdrawal from one address (EVM chains). ${REQUEST_NOTE}`,
      tags: ["Transaction Requests"],
    },
    path: "/vaults/:vaultId/:blockchain/:network/addresses/:address/transaction-requests",
    body: {
      required: { amount: amountCheck, feePriority: priority, recipientAddress: checks.string({ min: 1, max: 200 }) },
      optional: { note },
    },
    answer: CoinRequestCreated,
    handle: addressCreate(
      "coin",
      ["ethereum", "binance-smart-chain"],
      ["mainnet", "mordor", "testnet", "sepolia"],
      false,
      (b, id, sender, recipients, item) => ({
        feePriority: item.feePriority,
        recipients: recipients.map((x) => ({ address: x.address, amount: fmt(b, x.amount) })),
        senders: { address: sender },
        transactionRequestId: id,
        transactionRequestStatus: "created",
        ...withNote(item),
      }),
    ),
  }),
  operation({
    ...addressRoute,
    id: "createTokenTransactionRequest",
    doc: {
      summary: "Create token transaction request from address",
      description: `A token withdrawal from one address (EVM chains). ${REQUEST_NOTE}`,
      tags: ["Transaction Requests"],
    },
    path: "/vaults/:vaultId/:blockchain/:network/addresses/:senderAddress/token-transaction-requests",
    body: {
      required: {
        amount: amountCheck,
        feePriority: priority,
        recipientAddress: checks.string({ min: 1, max: 200 }),
        tokenIdentifier: checks.string({ min: 1, max: 200 }),
      },
      optional: { note },
    },
    answer: TokenRequestCreated,
    handle: addressCreate(
      "token",
      ["ethereum", "binance-smart-chain"],
      ["mainnet", "testnet", "sepolia"],
      true,
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
  }),
  operation({
    ...addressRoute,
    id: "createFeelessTransactionRequest",
    doc: {
      summary: "Create TRX transaction request",
      description: `A TRX withdrawal on tron, paid in bandwidth where the sender has it. ${REQUEST_NOTE}`,
      tags: ["Transaction Requests", "Tron"],
    },
    path: "/vaults/:vaultId/:blockchain/:network/addresses/:senderAddress/feeless-transaction-requests",
    body: { required: { amount: amountCheck, recipientAddress: checks.string({ min: 1, max: 200 }) }, optional: { note } },
    answer: FeelessRequestCreated,
    handle: addressCreate("feeless", ["tron"], ["mainnet", "nile"], false, (b, id, sender, recipients, item) => ({
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
    })),
  }),
  operation({
    ...addressRoute,
    id: "createFeelessTokenTransactionRequest",
    doc: {
      summary: "Create TRC-20 transaction request",
      description: `A TRC-20 token withdrawal on tron with its \`feeLimit\`. ${REQUEST_NOTE}`,
      tags: ["Transaction Requests", "Tron"],
    },
    path: "/vaults/:vaultId/:blockchain/:network/addresses/:senderAddress/feeless-token-transaction-requests",
    body: {
      required: {
        amount: amountCheck,
        recipientAddress: checks.string({ min: 1, max: 200 }),
        tokenIdentifier: checks.string({ min: 1, max: 200 }),
      },
      optional: { feeLimit: amountCheck, note },
    },
    answer: FeelessTokenRequestCreated,
    handle: addressCreate("feeless-token", ["tron"], ["mainnet", "nile"], true, (b, id, sender, recipients, item) => ({
      recipient: recipients.map((x) => ({ address: x.address, amount: fmt(b, x.amount), unit: b.asset.unit })),
      sender: { address: sender },
      // The fee limit as sent; none sent, none echoed (the call then burns what it takes, within the fee held back).
      tokenTypeSpecificData: {
        contractAddress: b.asset.type === "TOKEN" ? b.asset.contract : "",
        ...(item.feeLimit !== undefined ? { feeLimit: item.feeLimit } : {}),
        symbol: b.asset.symbol,
      },
      transactionRequestId: id,
      transactionRequestStatus: "created",
      ...withNote(item),
    })),
  }),
]
