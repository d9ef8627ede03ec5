// Runs an audit over a store and its read models as of a point; the report as plain JSON. The audit sits below the
// API: the digest of the API's answers (src/api/digest) is handed in by the caller.
import { Effect } from "effect"
import { findAsset } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"
import type { AsOf } from "../projections/projection.js"
import type { ReadModels } from "../projections/read-models.js"
import { logPages } from "../event-log/pages.js"
import type { EventStoreShape } from "../store/event-store.js"
import { LedgerFold } from "./ledger-fold.js"
import { reconcile, type Discrepancy, type Reconciliation } from "./reconcile.js"
import { shownDigest } from "./digest-format.js"

export const AUDIT_FORMAT = "custody-sim/audit@1"
const PAGE = 10_000

export interface AuditReport {
  readonly format: typeof AUDIT_FORMAT
  readonly ok: boolean
  /** The audit point: the last position included and its simulated time; the head when not asked otherwise. */
  readonly asOf: { readonly position: number; readonly time: number | null; readonly timeMs: number | null }
  readonly events: number
  readonly digest: AuditDigest
  readonly summary: Reconciliation["counts"] & { readonly discrepancies: number; readonly pending: number }
  readonly discrepancies: ReadonlyArray<Discrepancy>
  readonly pending: Reconciliation["pending"]
  readonly balances: ReadonlyArray<{
    readonly blockchain: string
    readonly network: string
    readonly address: string
    readonly assetId: string
    readonly symbol: string | null
    readonly expected: { readonly totalAmount: string; readonly blockedAmount: string; readonly byKind: Readonly<Record<string, string>> }
    readonly actual: {
      readonly totalAmount: string
      readonly availableAmount: string
      readonly blockedAmount: string
      readonly allocatedAmount: string
    }
  }>
}

/** The digest of the API's answers at the audit point (`digestOf` in src/api/digest). */
export interface AuditDigest {
  readonly format: string
  readonly sha256: string
}

/** What an audit reads: the log, and the read models folded from it. */
export interface AuditedWorld {
  readonly store: EventStoreShape
  readonly models: ReadModels
}

export interface AuditOptions {
  /** The digest of the API's answers as of the audit point. */
  readonly digest: (asOf: AsOf) => Promise<AuditDigest>
  /** Called after each page of the log with the events read so far and the head position. */
  readonly onProgress?: (read: number, head: bigint) => void
}

/** `time` in UNIX seconds, as everywhere else a field is named time; `timeMs` beside it. */
const asOfPoint = (position: bigint, ms: number | undefined) => ({
  position: Number(position),
  time: ms === undefined ? null : Math.floor(ms / 1000),
  timeMs: ms ?? null,
})

/** Reads the whole log (what comes after the audit point tells in-flight settlements from missing ones). */
export const runAudit = async (sim: AuditedWorld, asOf: AsOf, options: AuditOptions): Promise<AuditReport> => {
  const fold = new LedgerFold(asOf)
  const head = await Effect.runPromise(sim.store.headPosition)
  let read = 0
  for await (const page of logPages(sim.store, PAGE)) {
    for (const e of page) fold.apply(e)
    read += page.length
    options.onProgress?.(read, head)
  }
  const r = reconcile(fold, sim.models)
  const position = asOf ?? sim.models.position
  const fmt = (assetId: string, n: bigint) => formatAmount(n, findAsset(assetId)?.decimals ?? 0)
  return {
    format: AUDIT_FORMAT,
    ok: r.discrepancies.length === 0,
    asOf: asOfPoint(position, position < 0n ? undefined : sim.models.timeline.timeAt(position)),
    events: fold.events,
    digest: await options.digest(asOf),
    summary: { ...r.counts, discrepancies: r.discrepancies.length, pending: r.pending.length },
    discrepancies: r.discrepancies,
    pending: r.pending,
    balances: r.balances.map((b) => ({
      blockchain: b.blockchain,
      network: b.network,
      address: b.address,
      assetId: b.assetId,
      symbol: findAsset(b.assetId)?.symbol ?? null,
      expected: {
        totalAmount: fmt(b.assetId, b.expected.total),
        blockedAmount: fmt(b.assetId, b.expected.blocked),
        byKind: Object.fromEntries(Object.entries(b.expected.byKind).map(([k, v]) => [k, fmt(b.assetId, v)])),
      },
      actual: {
        totalAmount: fmt(b.assetId, b.actual.total),
        availableAmount: fmt(b.assetId, b.actual.available),
        blockedAmount: fmt(b.assetId, b.actual.blocked),
        allocatedAmount: fmt(b.assetId, b.actual.allocated),
      },
    })),
  }
}

/** A few lines for a terminal: the verdict, the counts, each discrepancy with its events, the digest. */
export const auditText = (r: AuditReport): string => {
  const s = r.summary
  const lines = [
    `audit as of position ${r.asOf.position}${r.asOf.time !== null ? ` (time ${r.asOf.time})` : ""}: ${r.ok ? "OK" : `${s.discrepancies} discrepancies`}`,
    `events ${r.events}, balances ${s.balances}, in flight ${s.pending}`,
    `confirmed deposits ${s.deposits}: credited ${s.depositsCredited}, in flight ${s.depositsPending}, never credited ${s.depositsNotCredited}`,
    `credits ${s.credits}: of deposits ${s.creditsOfDeposits}, inside the workspace ${s.creditsInternal}, unmatched ${s.creditsUnmatched}`,
    `mined withdrawals ${s.withdrawals}: debited ${s.withdrawalsDebited}, in flight ${s.withdrawalsPending}, never debited ${s.withdrawalsNotDebited}`,
    `debits ${s.debits}: of withdrawals ${s.debitsOfWithdrawals}, unmatched ${s.debitsUnmatched}`,
  ]
  for (const d of r.discrepancies) {
    lines.push(`  ${d.kind}: ${d.message}${d.address !== undefined ? ` [${d.blockchain}/${d.network} ${d.address} ${d.assetId}]` : ""}`)
    for (const e of d.events) lines.push(`    event ${e.id} ${e.type} at position ${e.position} in ${e.stream}`)
  }
  lines.push(`digest ${shownDigest(r.digest.sha256)}`)
  return lines.join("\n")
}
