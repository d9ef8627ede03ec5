import { toUnixSeconds, type SimInstant } from "../../domain/shared/sim-time.js"
import { errors, isApiError } from "../errors.js"
import { vaultAt } from "../inputs/parties.js"
import { type Operation, operation } from "../operation.js"
import { paginate } from "../inputs/pagination.js"
import { transactionListItem, describeTransaction } from "../presenters/transactions.js"
import { TransactionListItem, TransactionDetail } from "../wire/transactions.js"

export const transactionOperations: ReadonlyArray<Operation> = [
  operation({
    id: "listVaultTransactions",
    doc: {
      summary: "List vault transactions",
      description: "A vault's transactions on the simulated chains (deposits, withdrawals, internal moves), newest first, paged.",
      tags: ["Transactions"],
    },
    method: "GET",
    path: "/vaults/:vaultId/transactions",
    scope: "read",
    paginated: true,
    list: true,
    answer: TransactionListItem,
    vaultParam: "vaultId",
    handle: ({ params, query, asOf, apiVersion }, deps) => {
      const vault = vaultAt(deps, params.vaultId, errors.unknownVault(apiVersion), asOf)
      if (isApiError(vault)) return vault
      // Newest first, as transaction histories are read.
      const records = [...deps.reads.transactions(params.vaultId, asOf)].reverse()
      const page = paginate(records, (r) => r.view.transfer.recordId, query)
      if ("code" in page) return page
      return { status: 200, page: { ...page, items: page.items.map((r) => transactionListItem(deps, r, asOf)) } }
    },
  }),
  operation({
    id: "getVaultTransaction",
    doc: {
      summary: "Get transaction details",
      description: "One transaction of the vault in detail: its parties, amounts, fee and the block it was mined in.",
      tags: ["Transactions"],
    },
    method: "GET",
    path: "/vaults/:vaultId/:blockchain/transactions/:transactionId",
    scope: "read",
    answer: TransactionDetail,
    vaultParam: "vaultId",
    handle: ({ params, asOf, apiVersion }, deps) => {
      const vault = vaultAt(deps, params.vaultId, errors.unknownVault(apiVersion), asOf)
      if (isApiError(vault)) return vault
      const r = deps.reads.transaction(params.vaultId, params.transactionId, asOf)
      if (r === undefined || r.view.blockchain !== params.blockchain) return errors.resourceNotFound("transaction")
      const d = describeTransaction(deps, r, asOf)
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
  }),
]
