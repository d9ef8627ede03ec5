// 2026-03-20's vault-account endpoints: list, details, edit, and an account's assets, addresses and transactions.
import { findAsset } from "../../domain/chains/index.js"
import { since, type ApiVersion } from "../../domain/api-key/index.js"
import type { VaultAccountId, VaultId } from "../../domain/shared/ids.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { AsOf } from "../reads.js"
import { editVaultAccount } from "../../commands/vault-accounts.js"
import { checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { unknownVault, vaultAt } from "../inputs/parties.js"
import { errors, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { paginate } from "../inputs/pagination.js"
import { runCommand } from "../use-case.js"
import { VaultAccountAddress, VaultAccountAsset, vaultAccountShape } from "../wire/vault-accounts.js"
import { accountHoldings, accountValue, addressId, findAccount, vaultAccountsOf, type AccountRef } from "../presenters/vault-accounts.js"
import { transactionListItem } from "../presenters/transactions.js"
import { TransactionListItem } from "../wire/transactions.js"

const NEW = since("2026-03-20")

const booleanQuery = checks.booleanText()

const withAccount = (
  deps: ApiDeps,
  params: { readonly vaultId: string; readonly vaultAccountId: string },
  asOf: AsOf,
  version: ApiVersion,
  then: (account: AccountRef) => OperationResult,
): OperationResult => {
  const vault = vaultAt(deps, params.vaultId, unknownVault(version), asOf)
  if (isApiError(vault)) return vault
  const account = findAccount(deps, vault, params.vaultAccountId, asOf)
  return account === undefined ? errors.resourceNotFound("vault account") : then(account)
}

export const vaultAccountReadOperations: ReadonlyArray<Operation> = [
  operation({
    id: "listVaultAccounts",
    doc: {
      summary: "List vault accounts",
      description: "A vault's accounts with their balances, paged.",
      tags: ["Vault Accounts"],
    },
    method: "GET",
    path: "/vaults/:vaultId/vault-accounts/details",
    scope: "read",
    vaultParam: "vaultId",
    versions: NEW,
    paginated: true,
    list: true,
    query: { optional: { isHidden: booleanQuery, isHideEmpty: booleanQuery } },
    answer: vaultAccountShape({ favourite: "list", index: "integer" }),
    handle: ({ params, query, asOf, apiVersion }, deps) => {
      const vault = vaultAt(deps, params.vaultId, unknownVault(apiVersion), asOf)
      if (isApiError(vault)) return vault
      const accounts = vaultAccountsOf(deps, vault, asOf)
      const shown =
        query.isHidden !== "true" && query.isHideEmpty !== "true"
          ? accounts.ids
          : accounts.ids.filter(
              (a) =>
                (query.isHidden !== "true" || a.profile.at(asOf)!.isHiddenInDashboard) &&
                (query.isHideEmpty !== "true" || [...accountHoldings(deps, accounts.ref(a), asOf).values()].some((b) => b.total > 0n)),
            )
      const page = paginate(shown, (a) => a.vaultAccountId, query)
      return "code" in page
        ? page
        : { status: 200, page: { ...page, items: page.items.map((a) => accountValue(deps, accounts.ref(a), asOf)) } }
    },
  }),
  operation({
    id: "getVaultAccount",
    doc: {
      summary: "Get vault account details",
      description: "One vault account with its balances. A malformed id is 409 `invalid_id_format`, an unknown one 404.",
      tags: ["Vault Accounts"],
    },
    method: "GET",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/details",
    scope: "read",
    vaultParam: "vaultId",
    versions: NEW,
    answer: vaultAccountShape({ favourite: "details", index: "string" }),
    handle: ({ params, asOf, apiVersion }, deps) =>
      withAccount(deps, params, asOf, apiVersion, (a) => ({ status: 200, item: accountValue(deps, a, asOf) })),
  }),
  operation({
    id: "editVaultAccount",
    doc: {
      summary: "Edit vault account",
      description: "Changes a vault account's name, colour, hidden and favourite flags; the edit is an event in the log.",
      tags: ["Vault Accounts"],
    },
    method: "PUT",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/edit",
    scope: "write",
    vaultParam: "vaultId",
    versions: NEW,
    body: {
      required: {},
      optional: {
        name: checks.string({ min: 1, max: 100 }),
        color: checks.color(),
        isHiddenInDashboard: checks.boolean(),
        isFavoriteInDashboard: checks.boolean(),
        // The service's own clients send the details page's spelling.
        isFavorityInDashboard: checks.boolean(),
      },
    },
    answer: vaultAccountShape({ favourite: "details", index: "string" }),
    handle: async ({ params, item, requestId, apiVersion }, deps) => {
      const vaultId = params.vaultId
      const vault = vaultAt(deps, vaultId, unknownVault(apiVersion))
      if (isApiError(vault)) return vault
      const current = findAccount(deps, vault, params.vaultAccountId, undefined)
      if (current === undefined) return errors.resourceNotFound("vault account")
      const favourite = item.isFavoriteInDashboard ?? item.isFavorityInDashboard
      const r = await runCommand(
        deps,
        editVaultAccount(vaultId as VaultId, current.vaultAccountId as VaultAccountId, {
          ...(item.name !== undefined ? { name: item.name } : {}),
          ...(item.color !== undefined ? { color: item.color } : {}),
          ...(item.isHiddenInDashboard !== undefined ? { isHiddenInDashboard: item.isHiddenInDashboard } : {}),
          ...(favourite !== undefined ? { isFavoriteInDashboard: favourite } : {}),
        }),
        { requestId },
      )
      if (isApiError(r)) return r
      const edited = findAccount(deps, vault, current.vaultAccountId, undefined)!
      return { status: 200, item: accountValue(deps, edited, undefined) }
    },
  }),
  operation({
    id: "listVaultAccountAssets",
    doc: {
      summary: "List vault account assets",
      description: "A vault account's assets and their available amounts, paged.",
      tags: ["Vault Accounts"],
    },
    method: "GET",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/list-assets",
    scope: "read",
    vaultParam: "vaultId",
    versions: NEW,
    paginated: true,
    list: true,
    query: { optional: { assetUnit: checks.string({ min: 1, max: 20 }) } },
    answer: VaultAccountAsset,
    handle: ({ params, query, asOf, apiVersion }, deps) =>
      withAccount(deps, params, asOf, apiVersion, (account) => {
        const rows = [...accountHoldings(deps, account, asOf)].flatMap(([id, b]) => {
          const asset = findAsset(id)
          if (asset === undefined || (query.assetUnit !== undefined && asset.symbol.toLowerCase() !== query.assetUnit.toLowerCase()))
            return []
          return [
            {
              assetId: asset.id,
              symbol: asset.symbol,
              availableAmount: formatAmount(b.available, asset.decimals),
              blockchain: asset.blockchain,
              exchangeRateToUsd: deps.reads.rate(asset.symbol, asOf),
            },
          ]
        })
        const page = paginate(rows, (r) => r.assetId, query)
        return "code" in page ? page : { status: 200, page }
      }),
  }),
  operation({
    id: "listVaultAccountAddresses",
    doc: {
      summary: "List vault account addresses",
      description: "A vault account's addresses with their balances per asset, paged.",
      tags: ["Vault Accounts"],
    },
    method: "GET",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/list-addresses",
    scope: "read",
    vaultParam: "vaultId",
    versions: NEW,
    paginated: true,
    list: true,
    query: { optional: { assetId: checks.string({ min: 1, max: 64 }), blockchain: checks.string({ min: 1, max: 40 }) } },
    answer: VaultAccountAddress,
    handle: ({ params, query, asOf, apiVersion }, deps) =>
      withAccount(deps, params, asOf, apiVersion, (account) => {
        const h = deps.reads
        const rows = account.addresses
          .filter(
            (a) =>
              (query.blockchain === undefined || a.facts.blockchain === query.blockchain) &&
              (query.assetId === undefined || h.heldAssets(a, asOf).includes(query.assetId)),
          )
          .map((a) => ({
            address: a.facts.address,
            addressId: addressId(a),
            blockchain: a.facts.blockchain,
            network: a.facts.network,
            label: a.facts.label,
            balances: h.heldAssets(a, asOf).flatMap((id) => {
              const asset = findAsset(id)
              if (asset === undefined) return []
              const b = h.balance(a.facts.blockchain, a.facts.network, a.facts.address, id, asOf)
              return [{ amount: formatAmount(b.total, asset.decimals), assetId: id, symbol: asset.symbol }]
            }),
          }))
        const page = paginate(rows, (r) => r.addressId, query)
        return "code" in page ? page : { status: 200, page }
      }),
  }),
  operation({
    id: "listVaultAccountTransactions",
    doc: {
      summary: "List vault account transactions",
      description:
        "A vault account's transactions, newest first, paged; 10 a page by default, as the service was observed to answer (its documentation says 50).",
      tags: ["Vault Accounts", "Transactions"],
    },
    method: "GET",
    path: "/vaults/:vaultId/vault-accounts/:vaultAccountId/transactions",
    scope: "read",
    vaultParam: "vaultId",
    versions: NEW,
    paginated: true,
    // 10 as the service answers (its documentation says 50): custody-api-2026.md §2.4, open point 11.
    defaultLimit: 10,
    list: true,
    answer: TransactionListItem,
    handle: ({ params, query, asOf, apiVersion }, deps) =>
      withAccount(deps, params, asOf, apiVersion, (account) => {
        const own = new Set(account.addresses.map((a) => `${a.facts.blockchain}|${a.facts.network}|${a.facts.address}`))
        const h = deps.reads
        const mine = (blockchain: string, network: string, address: string) => {
          const a = h.address(blockchain, network, address, asOf)
          return a !== undefined && own.has(`${a.facts.blockchain}|${a.facts.network}|${a.facts.address}`)
        }
        // Newest first, as the vault's list; an account whose address paid a transfer's gas, or received one of a
        // batch's calls, lists it too.
        const records = [...deps.reads.transactions(params.vaultId, asOf)].reverse().filter((r) => {
          const t = r.view.transfer
          const on = (address: string) => mine(r.view.blockchain, r.view.network, address)
          return on(t.from) || (t.calls ?? [t]).some((c) => on(c.to)) || (t.feePayer !== undefined && on(t.feePayer))
        })
        const page = paginate(records, (r) => r.view.transfer.recordId, query)
        return "code" in page ? page : { status: 200, page: { ...page, items: page.items.map((r) => transactionListItem(deps, r, asOf)) } }
      }),
  }),
]
