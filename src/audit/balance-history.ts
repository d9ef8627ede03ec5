// Balance histories of (address, asset) pairs picked by vault, vault account, address and asset: every change.
import type { Balance } from "../projections/balances/holdings.js"
import type { AddressView } from "../projections/balances/holdings.js"
import type { AsOf } from "../projections/projection.js"
import type { ReadModels } from "../projections/read-models.js"

export interface HistoryFilter {
  readonly vaultId?: string
  readonly vaultAccountId?: string
  readonly address?: string
  readonly assetId?: string
}

export interface Series {
  readonly address: AddressView
  readonly assetId: string
  /** (position, balance after the event at that position), in position order. */
  readonly entries: ReadonlyArray<readonly [bigint, Balance]>
}

export interface Change {
  readonly series: Series
  readonly position: bigint
  readonly balance: Balance
  readonly previous: Balance
}

const ZERO: Balance = { total: 0n, available: 0n, blocked: 0n, allocated: 0n }

const matches = (a: AddressView, f: HistoryFilter) =>
  (f.vaultId === undefined || a.facts.vaultId === f.vaultId) &&
  (f.vaultAccountId === undefined || a.facts.vaultAccountId === f.vaultAccountId) &&
  (f.address === undefined || a.facts.address === f.address)

/** Every (address, asset) pair the filter picks that has a history, in address creation then asset order. */
export const selectSeries = (models: ReadModels, filter: HistoryFilter, asOf: AsOf = undefined): Array<Series> => {
  const h = models.holdings
  const out: Array<Series> = []
  const addresses =
    filter.vaultId !== undefined
      ? h.vaultAddresses(filter.vaultId, asOf)
      : [...h.addresses.values()].sort((x, y) => (x.position < y.position ? -1 : x.position > y.position ? 1 : 0))
  for (const a of addresses) {
    if (!matches(a, filter) || (asOf !== undefined && a.position > asOf)) continue
    const assets = filter.assetId !== undefined ? [filter.assetId] : [...a.assets.keys()]
    for (const assetId of assets) {
      const history = h.balanceHistory(a.facts.blockchain, a.facts.network, a.facts.address, assetId)
      if (history === undefined) continue
      const entries = history.entries().filter(([p]) => asOf === undefined || p <= asOf)
      if (entries.length > 0) out.push({ address: a, assetId, entries })
    }
  }
  return out
}

/** The changes of all series merged in position order (series order within one position). */
export const mergeChanges = (series: ReadonlyArray<Series>): Array<Change> => {
  const out: Array<Change> = []
  for (const s of series)
    s.entries.forEach(([position, balance], i) => {
      out.push({ series: s, position, balance, previous: s.entries[i - 1]?.[1] ?? ZERO })
    })
  return out.sort((x, y) => (x.position < y.position ? -1 : x.position > y.position ? 1 : 0))
}

/** A page of at most `limit` changes from `fromPosition` on; a position's changes are never split across pages. */
export const pageChanges = (
  changes: ReadonlyArray<Change>,
  fromPosition: bigint,
  limit: number,
): { page: Array<Change>; nextPosition: bigint | undefined } => {
  const page: Array<Change> = []
  for (const c of changes) {
    if (c.position < fromPosition) continue
    const last = page[page.length - 1]
    if (page.length >= limit && last !== undefined && last.position !== c.position) return { page, nextPosition: c.position }
    page.push(c)
  }
  return { page, nextPosition: undefined }
}
