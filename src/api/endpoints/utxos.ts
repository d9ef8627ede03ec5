// 2026-03-20's GET /vaults/{vaultId}/utxos: the vault's outputs on the UTXO chains, unspent (default) or spent,
// with the request that holds each, filtered and paged by utxoId, as of any position.
import { since } from "../../domain/api-key/index.js"
import { findAsset } from "../../domain/chains/index.js"
import { canonicalAddress } from "../../domain/vault-account/state.js"
import { checks } from "../body.js"
import { errors, isApiError } from "../errors.js"
import { type Operation, operation } from "../operation.js"
import { paginate } from "../inputs/pagination.js"
import { UtxoItem } from "../wire/utxos.js"
import { hasAccount, unknownVault, vaultAt } from "../inputs/parties.js"
import { accountOfOutput, utxoJson } from "../presenters/utxos.js"

const booleanQuery = checks.booleanText()

export const utxoListOperations: ReadonlyArray<Operation> = [
  operation({
    id: "listUtxos",
    doc: {
      summary: "List UTXOs",
      description:
        "A vault's outputs on UTXO chains, unspent by default (`isSpent`, `address`, `assetId`, `vaultAccountId`), paged by `utxoId`.",
      tags: ["UTXOs"],
    },
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
      const vaultId = params.vaultId
      const vault = vaultAt(deps, vaultId, unknownVault(apiVersion), asOf)
      if (isApiError(vault)) return vault
      if (query.vaultAccountId !== undefined && !hasAccount(deps, vaultId, query.vaultAccountId, asOf))
        return errors.resourceNotFound("vault account")
      if (query.assetId !== undefined && findAsset(query.assetId) === undefined) return errors.resourceNotFound("asset")
      const spent = query.isSpent === "true"
      const address = query.address === undefined ? undefined : canonicalAddress(query.address)
      const rows = deps.reads
        .utxos(vaultId, asOf)
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
  }),
]
