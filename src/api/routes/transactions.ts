// Endpoints #13 transactions of a vault (paginated by `id`) and #14 one transaction's detail.
import { findAsset, findNetwork } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import type { AsOf } from "../../projections/projection.js"
import type { TxRecord } from "../../projections/transactions.js"
import type { ApiDeps } from "../deps.js"
import { errors } from "../errors.js"
import type { Operation } from "../operation.js"
import { paginate } from "../pagination.js"
import { Schema } from "effect"
import { BooleanString } from "../wire/common.js"
import { symbolField } from "../wire/assets.js"
import { array, field, optional, struct } from "../wire/shape.js"

const unitField = field(Schema.String, { renamed: { "2026-03-20": "amountUnit" } })
const Party = struct({
  address: Schema.String,
  addressType: optional(Schema.String),
  label: optional(Schema.String),
  amount: Schema.String,
  isVaultAddress: BooleanString,
  unitSymbol: unitField,
})
const Fee = struct({ amount: Schema.String, unitSymbol: unitField })
const Direction = Schema.Literals(["incoming", "outgoing", "client-internal", "vault-internal", "internal"])

export const TransactionListItem = struct({
  id: Schema.String,
  transactionId: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  createdTimestamp: Schema.Int,
  direction: Direction,
  hasTokenTransfer: BooleanString,
  isInternal: BooleanString,
  minedInBlockHeight: Schema.String,
  status: Schema.String,
  transactionFee: Fee,
  senders: array(Party),
  recipients: array(Party),
})

/** Always shown from 2026-03-20 on, empty when there is none. */
const listFrom2026 = (item: Parameters<typeof array>[0]) => optional(array(item), { absentAs: { "2026-03-20": [] } })

const TransactionDetail = struct({
  id: Schema.String,
  // 2026-03-20 no longer echoes the transaction id and blockchain of the path.
  transactionId: field(Schema.String, { until: "2026-03-20" }),
  blockchain: field(Schema.String, { until: "2026-03-20" }),
  direction: Direction,
  network: Schema.String,
  minedInBlockHeight: Schema.String,
  minedInBlockHash: optional(Schema.String),
  status: Schema.String,
  timestamp: field(Schema.Int, { renamed: { "2026-03-20": "dateTime" } }),
  senders: array(Party),
  recipients: array(Party),
  transactionFee: Fee,
  internalTransfers: listFrom2026(
    struct({
      fromAddress: Schema.String,
      toAddress: Schema.String,
      operationId: Schema.String,
      operationType: Schema.String,
      previousTxHash: Schema.String,
      timestamp: Schema.Int,
    }),
  ),
  tokensTransfers: listFrom2026(
    struct({
      amount: Schema.String,
      contract: Schema.String,
      fromAddress: Schema.String,
      toAddress: Schema.String,
      symbol: symbolField,
      tokenName: Schema.String,
      type: Schema.String,
      decimals: Schema.Int,
    }),
  ),
})

const bool = (b: boolean) => (b ? "true" : "false")

const party = (deps: ApiDeps, r: TxRecord, address: string, amount: string, unitSymbol: string, asOf: AsOf) => {
  const own = deps.sim.models.holdings.address(r.view.blockchain, r.view.network, address, asOf)
  return {
    address,
    ...(own !== undefined ? { addressType: own.facts.addressType, label: own.facts.label } : { addressType: "external" }),
    amount,
    isVaultAddress: bool(own !== undefined && own.facts.vaultId === r.vaultId),
    unitSymbol,
  }
}

const SETTLED: ReadonlySet<string> = new Set(["Mined", "MinedWithErrors", "Success"])

/** The fee a withdrawal paid once recorded mined (tron's free bandwidth may make it 0); until then the most it may cost. */
const feeOf = (deps: ApiDeps, r: TxRecord, asOf: AsOf): bigint => {
  const t = r.view.transfer
  const request = t.kind === "withdrawal" ? deps.sim.models.txRequests.byTransactionId.get(t.transactionId) : undefined
  const status = request?.status.at(asOf)
  return request?.mined !== undefined && status !== undefined && SETTLED.has(status) ? BigInt(request.mined.fee) : BigInt(t.fee)
}

const describe = (deps: ApiDeps, r: TxRecord, asOf: AsOf) => {
  const t = r.view.transfer
  const asset = findAsset(t.assetId)!
  const native = findAsset(findNetwork(r.view.blockchain, r.view.network)!.nativeAssetId)!
  // A batch lists each call as a recipient (the coin it sends; 0 for a token call) and every token call as a token transfer.
  const calls = (t.calls ?? [t]).map((c) => ({ to: c.to, amount: BigInt(c.amount), asset: findAsset(c.assetId)! }))
  const token = calls.some((c) => c.asset.type === "TOKEN")
  const coin = (c: (typeof calls)[number]) => (c.asset.type === "TOKEN" ? 0n : c.amount)
  const mined = r.view.mined.at(asOf)
  return {
    asset,
    token,
    mined,
    fee: { amount: formatAmount(feeOf(deps, r, asOf), native.decimals), unitSymbol: native.unit },
    senders: [
      party(
        deps,
        r,
        t.from,
        formatAmount(
          calls.reduce((a, c) => a + coin(c), 0n),
          native.decimals,
        ),
        native.unit,
        asOf,
      ),
    ],
    recipients: calls.map((c) => party(deps, r, c.to, formatAmount(coin(c), native.decimals), native.unit, asOf)),
    tokensTransfers: calls
      .filter((c) => c.asset.type === "TOKEN")
      .map((c) => ({
        amount: formatAmount(c.amount, c.asset.decimals),
        contract: c.asset.type === "TOKEN" ? c.asset.contract : "",
        fromAddress: t.from,
        toAddress: c.to,
        symbol: c.asset.symbol,
        tokenName: c.asset.name,
        type: c.asset.type === "TOKEN" ? c.asset.standard : "",
        decimals: c.asset.decimals,
      })),
    status: r.status.at(asOf) ?? "pending",
  }
}

export const transactionListItem = (deps: ApiDeps, r: TxRecord, asOf: AsOf) => {
  const d = describe(deps, r, asOf)
  return {
    id: r.view.transfer.recordId,
    transactionId: r.view.transfer.transactionId,
    blockchain: r.view.blockchain,
    network: r.view.network,
    createdTimestamp: toUnixSeconds(r.view.submittedAt as SimInstant),
    direction: r.direction,
    hasTokenTransfer: bool(d.token),
    isInternal: bool(r.internal !== null),
    minedInBlockHeight: d.mined === undefined ? "" : String(d.mined.height),
    status: d.status,
    transactionFee: d.fee,
    senders: d.senders,
    recipients: d.recipients,
  }
}

export const transactionOperations: ReadonlyArray<Operation> = [
  {
    id: "listVaultTransactions",
    method: "GET",
    path: "/vaults/:vaultId/transactions",
    scope: "read",
    paginated: true,
    list: true,
    answer: TransactionListItem,
    vaultParam: "vaultId",
    handle: ({ params, query, asOf, apiVersion }, deps) => {
      if (deps.sim.models.workspace.vault(params.vaultId!, asOf) === undefined) return errors.unknownVault(apiVersion)
      // Newest first, as transaction histories are read.
      const records = [...deps.sim.models.transactions.list(params.vaultId!, asOf)].reverse()
      const page = paginate(records, (r) => r.view.transfer.recordId, query)
      if ("code" in page) return page
      return { status: 200, page: { ...page, items: page.items.map((r) => transactionListItem(deps, r, asOf)) } }
    },
  },
  {
    id: "getVaultTransaction",
    method: "GET",
    path: "/vaults/:vaultId/:blockchain/transactions/:transactionId",
    scope: "read",
    answer: TransactionDetail,
    vaultParam: "vaultId",
    handle: ({ params, asOf, apiVersion }, deps) => {
      if (deps.sim.models.workspace.vault(params.vaultId!, asOf) === undefined) return errors.unknownVault(apiVersion)
      const r = deps.sim.models.transactions.find(params.vaultId!, params.transactionId!, asOf)
      if (r === undefined || r.view.blockchain !== params.blockchain) return errors.resourceNotFound("transaction")
      const d = describe(deps, r, asOf)
      const t = r.view.transfer
      return {
        status: 200,
        item: {
          id: t.recordId,
          transactionId: t.transactionId,
          blockchain: r.view.blockchain,
          // The detail names internal transfers precisely (the list keeps incoming/outgoing, as the spec's list item).
          direction: r.internal ?? r.direction,
          network: r.view.network,
          minedInBlockHeight: d.mined === undefined ? "" : String(d.mined.height),
          ...(d.mined !== undefined ? { minedInBlockHash: d.mined.blockHash } : {}),
          status: d.status,
          timestamp: toUnixSeconds(r.view.submittedAt as SimInstant),
          senders: d.senders,
          recipients: d.recipients,
          transactionFee: d.fee,
          ...(d.tokensTransfers.length > 0 ? { tokensTransfers: d.tokensTransfers } : {}),
        },
      }
    },
  },
]
