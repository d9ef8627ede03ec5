// Control-plane reads the dashboard draws, each as of `asOf` (the x-sim-as-of syntax) through the read models'
// own as-of lookups and the REST presenters: vaults, accounts, addresses with balances, requests, keys, chains.
import { allAssets, allNetworks, findAsset, findNetwork } from "../../domain/chains/index.js"
import { chainKey } from "../../chain-sim/index.js"
import type { AsOf } from "../../projections/projection.js"
import type { AddressView } from "../../projections/balances/holdings.js"
import { parseAsOf } from "../as-of.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError, type ApiError } from "../errors.js"
import { paginate } from "../inputs/pagination.js"
import { defaultOperations } from "../operations.js"
import type { SimRoute } from "../sim/common.js"
import { runOperation } from "./operations.js"
import { amounts } from "../presenters/balances.js"
import { requestJson, wireStatus } from "../presenters/transaction-requests.js"
import { vaultAccountsOf, type AccountRef } from "../presenters/vault-accounts.js"
import { vaultAt } from "../inputs/parties.js"
import { vaultView } from "../presenters/vaults.js"

type Query = Record<string, string>

const asOfOf = (deps: ApiDeps, query: Query): AsOf | ApiError => parseAsOf(query.asOf, deps.sim.models, "asOf")

/** Simulated time in force at `asOf` (now when live). */
export const timeOf = (deps: ApiDeps, asOf: AsOf): number =>
  asOf === undefined ? deps.sim.clock.now() : asOf < 0n ? 0 : (deps.sim.models.timeline.timeAt(asOf) ?? deps.sim.clock.now())

const withAsOf =
  (
    handle: (query: Query, params: Record<string, string>, deps: ApiDeps, asOf: AsOf) => ReturnType<SimRoute["handle"]>,
  ): SimRoute["handle"] =>
  ({ query, params }, deps) => {
    const asOf = asOfOf(deps, query)
    return isApiError(asOf) ? asOf : handle(query, params, deps, asOf)
  }

const pageQuery = (q: Query) => ({
  ...(q.limit !== undefined ? { limit: q.limit } : {}),
  ...(q.startingAfter !== undefined ? { startingAfter: q.startingAfter } : {}),
})

const chainSummary = (deps: ApiDeps, blockchain: string, network: string, asOf: AsOf) => {
  const m = deps.sim.models.chains
  const key = chainKey(blockchain, network)
  const s = m.chain(key)?.state.at(asOf)
  const n = findNetwork(blockchain, network)!
  return {
    blockchain,
    network,
    networkType: n.networkType,
    height: m.heightAt(key, timeOf(deps, asOf), asOf),
    mode: s?.schedule.mode ?? "interval",
    intervalSeconds: s?.schedule.intervalSeconds ?? n.blockTimeSeconds,
    confirmationsRequired: s?.schedule.confirmations ?? n.confirmations,
    recorded: s !== undefined,
  }
}

/** A vault account as the dashboard lists it; `position` where it was created (none for the default account). */
const accountRow = (vaultId: string, a: AccountRef, position: number | undefined) => ({
  vaultAccountId: a.vaultAccountId,
  vaultId,
  name: a.profile.name,
  color: a.profile.color,
  isHiddenInDashboard: a.profile.isHiddenInDashboard,
  isDefault: a.vaultAccountId === vaultId,
  index: a.ordinal,
  createdAt: a.createdAt,
  ...(position !== undefined ? { position } : {}),
})

const addressJson = (deps: ApiDeps, a: AddressView, asOf: AsOf) => {
  const h = deps.sim.models.holdings
  const f = a.facts
  return {
    address: f.address,
    blockchain: f.blockchain,
    network: f.network,
    label: f.label,
    addressType: f.addressType,
    vaultAccountId: f.vaultAccountId,
    derivationPath: f.derivationPath,
    createdAt: a.createdAt,
    assets: h.heldAssets(a, asOf).flatMap((id) => {
      const asset = findAsset(id)
      if (asset === undefined) return []
      return [{ assetId: id, symbol: asset.symbol, ...amounts(h.balance(f.blockchain, f.network, f.address, id, asOf), asset.decimals) }]
    }),
  }
}

const requestRow = (deps: ApiDeps, r: NonNullable<ReturnType<ApiDeps["sim"]["models"]["txRequests"]["find"]>>, asOf: AsOf) => ({
  ...requestJson(r, asOf),
  vaultAccountId: r.draft.vaultAccountId,
  sender: r.draft.sender,
  assetId: r.draft.assetId,
  approvalLevels: r.draft.approvalLevels,
  createdAt: r.createdAt,
  position: Number(r.position),
  history: r.status
    .entries()
    .filter(([p]) => asOf === undefined || p <= asOf)
    .map(([p, s]) => ({ position: Number(p), time: deps.sim.models.timeline.timeAt(p) ?? null, status: wireStatus[s] })),
})

export const dashboardViews: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/overview",
    handle: withAsOf((_q, _p, deps, asOf) => {
      const m = deps.sim.models
      const vaults = m.workspace.vaultList(asOf).map((v) => {
        // Its default account and the accounts created in it.
        const accounts = 1 + m.holdings.vaultAccounts(v.profile.vaultId, asOf).length
        return { ...vaultView(v, asOf), accounts, approvalPolicy: v.policy.at(asOf) ?? { mode: "auto", levels: 1 } }
      })
      let awaiting = 0
      for (const r of m.txRequests.byId.values()) {
        const s = r.status.at(asOf)
        if (s === "AwaitingApproval" || s === "AwaitingApprovalL2") awaiting++
      }
      const chains = [...m.chains.chains.values()]
        .filter((c) => c.state.at(asOf) !== undefined)
        .map((c) => chainSummary(deps, c.blockchain, c.network, asOf))
      return {
        status: 200,
        body: {
          position: Number(asOf ?? m.position),
          head: Number(m.position),
          time: timeOf(deps, asOf),
          clock: { nowMs: deps.sim.clock.now(), frozen: deps.sim.clock.isFrozen() },
          vaults,
          chains,
          awaitingApproval: awaiting,
          webhooks: [...m.outbox.subscriptions.values()].filter((s) => s.status !== "deleted").length,
        },
      }
    }),
  },
  {
    method: "GET",
    path: "/_sim/vaults/:vaultId/vault-accounts",
    handle: withAsOf((q, p, deps, asOf) => {
      // The vault's default account (its id is the vault's, its addresses the vault's own) first, as REST lists it.
      const vault = vaultAt(deps, p.vaultId!, errors.resourceNotFound("vault"), asOf)
      if (isApiError(vault)) return vault
      const accounts = vaultAccountsOf(deps, vault, asOf)
      const page = paginate(accounts.ids, (a) => a.vaultAccountId, pageQuery(q))
      if (isApiError(page)) return page
      return {
        status: 200,
        body: {
          ...page,
          items: page.items.map((a) => accountRow(p.vaultId!, accounts.ref(a), "position" in a ? Number(a.position) : undefined)),
        },
      }
    }),
  },
  {
    method: "GET",
    path: "/_sim/vaults/:vaultId/addresses",
    handle: withAsOf((q, p, deps, asOf) => {
      const m = deps.sim.models
      if (m.workspace.vault(p.vaultId!, asOf) === undefined) return errors.resourceNotFound("vault")
      let list = m.holdings.vaultAddresses(p.vaultId!, asOf)
      // The vault's own addresses are its default account's: asked for by the vault id (or by an empty id).
      const wanted = q.vaultAccountId === "" || q.vaultAccountId === p.vaultId ? null : q.vaultAccountId
      if (q.vaultAccountId !== undefined) list = list.filter((a) => a.facts.vaultAccountId === wanted)
      const page = paginate(list, (a) => `${a.facts.blockchain}/${a.facts.network}/${a.facts.address}`, pageQuery(q))
      if (isApiError(page)) return page
      return { status: 200, body: { ...page, items: page.items.map((a) => addressJson(deps, a, asOf)) } }
    }),
  },
  {
    method: "GET",
    path: "/_sim/vaults/:vaultId/transactions",
    handle: withAsOf((q, p, deps, asOf) =>
      runOperation(defaultOperations, "listVaultTransactions", deps, { params: { vaultId: p.vaultId! }, query: pageQuery(q), asOf }),
    ),
  },
  {
    method: "GET",
    path: "/_sim/transaction-requests",
    handle: withAsOf((q, _p, deps, asOf) => {
      const m = deps.sim.models
      const wanted = q.status === undefined ? undefined : new Set(q.status.split(","))
      const list = [...m.txRequests.byId.values()]
        .filter((r) => (asOf === undefined || r.position <= asOf) && (q.vaultId === undefined || r.draft.vaultId === q.vaultId))
        .filter((r) => wanted === undefined || wanted.has(wireStatus[r.status.at(asOf) ?? "Created"]))
        .reverse()
      const page = paginate(list, (r) => r.draft.requestId, pageQuery(q))
      if (isApiError(page)) return page
      return { status: 200, body: { ...page, items: page.items.map((r) => requestRow(deps, r, asOf)) } }
    }),
  },
  {
    method: "GET",
    path: "/_sim/api-keys",
    handle: withAsOf((q, _p, deps, asOf) => {
      const keys = [...deps.sim.models.workspace.apiKeys.values()].filter((k) => asOf === undefined || k.position <= asOf)
      const page = paginate(keys, (k) => k.grant.key, pageQuery(q))
      if (isApiError(page)) return page
      return {
        status: 200,
        body: {
          ...page,
          items: page.items.map((k) => {
            const { secret: _s, passphraseHash: _h, passphraseSalt: _t, ...grant } = k.grant
            const revoked = k.revokedPosition !== undefined && (asOf === undefined || k.revokedPosition <= asOf)
            return { ...grant, revoked, position: Number(k.position) }
          }),
        },
      }
    }),
  },
  {
    method: "GET",
    path: "/_sim/chains/:blockchain/:network",
    handle: withAsOf((q, p, deps, asOf) => {
      const n = findNetwork(p.blockchain ?? "", p.network ?? "")
      if (n === undefined) return errors.resourceNotFound("chain (blockchain and network)")
      const m = deps.sim.models.chains
      const key = chainKey(n.blockchain, n.network)
      const mempool = [...m.transfers.values()]
        .filter((t) => t.chain === key && (asOf === undefined || t.position <= asOf) && t.mined.at(asOf) === undefined)
        .map((t) => ({
          transactionId: t.transfer.transactionId,
          kind: t.transfer.kind,
          assetId: t.transfer.assetId,
          from: t.transfer.from,
          to: t.transfer.to,
          amount: t.transfer.amount,
          submittedAt: t.submittedAt,
          position: Number(t.position),
        }))
      const page = paginate(mempool, (t) => t.transactionId, pageQuery(q))
      if (isApiError(page)) return page
      return { status: 200, body: { ...chainSummary(deps, n.blockchain, n.network, asOf), mempool: page } }
    }),
  },
  {
    method: "GET",
    path: "/_sim/assets",
    handle: () => ({
      status: 200,
      body: {
        networks: allNetworks().map((n) => ({
          blockchain: n.blockchain,
          network: n.network,
          networkType: n.networkType,
          nativeAssetId: n.nativeAssetId,
        })),
        assets: allAssets().map((a) => ({
          id: a.id,
          symbol: a.symbol,
          name: a.name,
          type: a.type,
          decimals: a.decimals,
          blockchain: a.blockchain,
          network: a.network,
          networkType: a.networkType,
        })),
      },
    }),
  },
]
