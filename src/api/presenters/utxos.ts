// An unspent or spent output of the vault as GET /vaults/{vaultId}/utxos lists it.
import { findAsset } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { accountIdOf } from "../../domain/vault-account/state.js"
import type { AsOf } from "../../projections/projection.js"
import type { UtxoRecord } from "../../projections/utxos.js"
import type { ApiDeps } from "../deps.js"

/** The vault account an output's address belongs to (the vault's own addresses: its default account, the vault id). */
export const accountOfOutput = (
  deps: ApiDeps,
  u: { vaultId: string; blockchain: string; network: string; address: string },
  asOf: AsOf,
): string => {
  const a = deps.reads.address(u.blockchain, u.network, u.address, asOf)
  return a === undefined ? u.vaultId : accountIdOf(a.facts)
}

export const utxoJson = (deps: ApiDeps, u: UtxoRecord, asOf: AsOf) => {
  const asset = findAsset(u.assetId)
  const spentIn = u.spent.at(asOf)
  const reservedBy = u.reserved.at(asOf) ?? null
  return {
    utxoId: u.utxoId,
    transactionId: u.transactionId,
    outputIndex: u.vout,
    address: u.address,
    vaultAccountId: accountOfOutput(deps, u, asOf),
    assetId: u.assetId,
    blockchain: u.blockchain,
    network: u.network,
    value: { amount: formatAmount(u.amount, asset?.decimals ?? 0), assetUnit: asset?.symbol ?? "" },
    isSpent: spentIn !== undefined,
    isReserved: reservedBy !== null,
    ...(reservedBy !== null ? { reservedByTransactionRequestId: reservedBy } : {}),
    ...(spentIn !== undefined ? { spentInTransactionId: spentIn } : {}),
    createdAtMs: u.createdAtMs,
  }
}
