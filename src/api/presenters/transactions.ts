// A transaction of the vault's log as the transaction endpoints show it: its parties, fee, token transfers, status.
import { findAsset, findNetwork } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import type { AsOf } from "../../projections/projection.js"
import type { TxRecord } from "../../projections/transactions.js"
import type { ApiDeps } from "../deps.js"

export const bool = (b: boolean) => (b ? "true" : "false")

const party = (deps: ApiDeps, r: TxRecord, address: string, amount: string, unitSymbol: string, asOf: AsOf) => {
  const own = deps.reads.address(r.view.blockchain, r.view.network, address, asOf)
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
  const request = t.kind === "withdrawal" ? deps.reads.txRequestOf(t.transactionId) : undefined
  const status = request?.status.at(asOf)
  return request?.mined !== undefined && status !== undefined && SETTLED.has(status) ? BigInt(request.mined.fee) : BigInt(t.fee)
}

export const describeTransaction = (deps: ApiDeps, r: TxRecord, asOf: AsOf) => {
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
  const d = describeTransaction(deps, r, asOf)
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
