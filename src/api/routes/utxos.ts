// 2026-03-20's GET /vaults/{vaultId}/utxos: the vault's outputs on the UTXO chains, unspent (default) or spent,
// with the request that holds each, filtered and paged by utxoId, as of any position.
import { since } from "../../domain/api-key/index.js"
import { findAsset } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { accountIdOf, canonicalAddress } from "../../domain/vault-account/state.js"
import type { AsOf } from "../../projections/projection.js"
import type { UtxoRecord } from "../../projections/utxos.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors } from "../errors.js"
import type { Operation } from "../operation.js"
import { paginate } from "../pagination.js"
import { UtxoItem } from "../wire/utxos.js"
import { hasAccount, unknownVault } from "../inputs/parties.js"

const booleanQuery = checks.booleanText()

/** The vault account an output's address belongs to (the vault's own addresses: its default account, the vault id). */
export const accountOfOutput = (
  deps: ApiDeps,
  u: { vaultId: string; blockchain: string; network: string; address: string },
  asOf: AsOf,
): string => {
  const a = deps.sim.models.holdings.address(u.blockchain, u.network, u.address, asOf)
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

export const utxoListOperations: ReadonlyArray<Operation> = [
  {
    id: "listUtxos",
    method: "GET",
    path: "/vaults/:vaultId/utxos",
    scope: "read",
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    paginated: true,
    list: true,
    query: {
      optional: {
        address: checks.string({ min: 1, max: 200 }),
        assetId: checks.string({ min: 1, max: 64 }),
        isSpent: booleanQuery,
        vaultAccountId: checks.string({ min: 1, max: 64 }),
      },
    },
    answer: UtxoItem,
    handle: ({ params, query, asOf, apiVersion }, deps) => {
      const vaultId = params.vaultId!
      if (deps.sim.models.workspace.vault(vaultId, asOf) === undefined) return unknownVault(apiVersion)
      if (query.vaultAccountId !== undefined && !hasAccount(deps, vaultId, query.vaultAccountId, asOf))
        return errors.resourceNotFound("vault account")
      if (query.assetId !== undefined && findAsset(query.assetId) === undefined) return errors.resourceNotFound("asset")
      const spent = query.isSpent === "true"
      const address = query.address === undefined ? undefined : canonicalAddress(query.address)
      const rows = deps.sim.models.utxos
        .list(vaultId, asOf)
        .filter(
          (u) =>
            (u.spent.at(asOf) !== undefined) === spent &&
            (query.assetId === undefined || u.assetId === query.assetId) &&
            (address === undefined || canonicalAddress(u.address) === address) &&
            (query.vaultAccountId === undefined || accountOfOutput(deps, u, asOf) === query.vaultAccountId),
        )
      const page = paginate(rows, (u) => u.utxoId, query)
      return "code" in page ? page : { status: 200, page: { ...page, items: page.items.map((u) => utxoJson(deps, u, asOf)) } }
    },
  },
]
