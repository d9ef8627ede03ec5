// Control plane: GET /_sim/balances/history — every balance change of the picked (address, asset) pairs, with its cause.
import { Effect, Exit } from "effect"
import { mergeChanges, pageChanges, selectSeries, type Change, type HistoryFilter } from "../../audit/balance-history.js"
import { findAsset } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import { storedAs } from "../../events/stored-event.js"
import type { EventStoreShape, RecordedEvent } from "../../store/event-store.js"
import { parseAsOf } from "../as-of.js"
import { errors, isApiError } from "../errors.js"
import type { SimRoute } from "./common.js"

const FILTERS = ["vaultId", "vaultAccountId", "address", "assetId"] as const
const KNOWN = new Set<string>([...FILTERS, "fromPosition", "limit", "asOf"])

const eventAt = async (store: EventStoreShape, position: bigint): Promise<RecordedEvent | undefined> => {
  const exit = await Effect.runPromiseExit(store.readAll({ fromPosition: position, maxCount: 1 }))
  const e = Exit.isSuccess(exit) ? exit.value[0] : undefined
  return e?.position === position ? e : undefined
}

/** The events that change a balance at a block height: a credited deposit, a mined request. */
const minedTypes = new Set(["DepositCredited", "TxRequestMined"] as const)

const changeJson = (c: Change, e: RecordedEvent | undefined) => {
  const decimals = findAsset(c.series.assetId)?.decimals ?? 0
  const f = c.series.address.facts
  const at = e?.metadata.at
  const mined = e === undefined ? undefined : storedAs(e, minedTypes)
  const height = mined?.data.blockHeight
  return {
    position: Number(c.position),
    time: at === undefined ? null : Math.floor(at / 1000),
    timeMs: at ?? null,
    blockHeight: height ?? null,
    vaultId: f.vaultId,
    vaultAccountId: f.vaultAccountId,
    blockchain: f.blockchain,
    network: f.network,
    address: f.address,
    assetId: c.series.assetId,
    totalAmount: formatAmount(c.balance.total, decimals),
    availableAmount: formatAmount(c.balance.available, decimals),
    blockedAmount: formatAmount(c.balance.blocked, decimals),
    allocatedAmount: formatAmount(c.balance.allocated, decimals),
    totalChange: formatAmount(c.balance.total - c.previous.total, decimals),
    blockedChange: formatAmount(c.balance.blocked - c.previous.blocked, decimals),
    event: e === undefined ? null : { id: e.id, type: e.type, stream: e.stream },
  }
}

export const historyRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/balances/history",
    handle: async ({ query }, deps) => {
      const unknown = Object.keys(query).filter((k) => !KNOWN.has(k))
      if (unknown.length > 0)
        return errors.invalidData(unknown.map((k) => ({ attribute: k, message: "is not a filter of the balance history" })))
      if (query.vaultId === undefined && query.vaultAccountId === undefined && query.address === undefined)
        return errors.invalidData([{ attribute: "vaultId", message: "one of vaultId, vaultAccountId or address is required" }])
      const from = query.fromPosition ?? "0"
      const limit = query.limit ?? "1000"
      if (!/^[0-9]{1,20}$/.test(from)) return errors.invalidData([{ attribute: "fromPosition", message: "must be a non-negative integer" }])
      if (!/^[0-9]{1,5}$/.test(limit) || Number(limit) < 1 || Number(limit) > 10_000)
        return errors.invalidData([{ attribute: "limit", message: "must be an integer from 1 to 10000" }])
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      if (isApiError(asOf)) return asOf
      const m = deps.sim.models
      if (query.vaultId !== undefined && !m.workspace.vaultsById.has(query.vaultId)) return errors.resourceNotFound("vault")
      if (query.vaultAccountId !== undefined && m.holdings.account(query.vaultAccountId, undefined) === undefined)
        return errors.resourceNotFound("vault account")
      if (query.assetId !== undefined && findAsset(query.assetId) === undefined) return errors.resourceNotFound("asset")
      if (query.address !== undefined && ![...m.holdings.addresses.values()].some((a) => a.facts.address === query.address))
        return errors.resourceNotFound("address")
      const filter: HistoryFilter = Object.fromEntries(FILTERS.flatMap((k) => (query[k] !== undefined ? [[k, query[k]]] : [])))
      const { page, nextPosition } = pageChanges(mergeChanges(selectSeries(m, filter, asOf)), BigInt(from), Number(limit))
      const events = new Map<bigint, RecordedEvent | undefined>()
      for (const c of page) if (!events.has(c.position)) events.set(c.position, await eventAt(deps.sim.store, c.position))
      return {
        status: 200,
        body: {
          changes: page.map((c) => changeJson(c, events.get(c.position))),
          ...(nextPosition !== undefined ? { nextPosition: Number(nextPosition) } : {}),
        },
      }
    },
  },
]
