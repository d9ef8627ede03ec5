// The audit report as one self-contained HTML page: inline CSS, and a uPlot step chart of each balance over time
// (or over log position when time stood still), with labelled axes, drawn by the inlined chart script.
import { findAsset } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"
import type { ReadModels } from "../projections/read-models.js"
import type { AuditReport } from "./audit.js"
import { selectSeries, type Series } from "./balance-history.js"
import { chartScript } from "./chart-script.js"
import { shownDigest } from "./digest-format.js"

/** An ISO time, or the number of ms when no Date can hold it: the page is written whatever the log holds. */
const timeText = (ms: number): string => {
  const d = new Date(ms)
  return Number.isNaN(d.getTime()) ? `${ms} ms` : d.toISOString()
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Most points a chart draws: the last change per column of a 640-pixel-wide chart keeps a long history small. */
const COLUMNS = 640

/**
 * One balance's chart data: total and available after each change, x in simulated seconds, or the log position
 * when the changes all share one time (a frozen clock, the testing default). Amounts become numbers here only
 * for drawing; the tables show them exactly.
 */
const chartData = (s: Series, models: ReadModels, endPosition: bigint, unit: string) => {
  const decimals = findAsset(s.assetId)?.decimals ?? 0
  const timeOf = (p: bigint) => models.timeline.timeAt(p) ?? 0
  const raw = s.entries.map(([p, b]) => ({ p: Number(p), t: timeOf(p), total: b.total, available: b.available }))
  const tEnd = Math.max(timeOf(endPosition), raw[raw.length - 1]!.t)
  // By time only when the changes themselves are spread over time: changes all made at one instant (a frozen
  // clock, then an advance) would draw as one step at the start.
  const byTime = raw.some((r) => r.t !== raw[0]!.t)
  const all = raw.map((r) => ({ ...r, x: byTime ? r.t / 1000 : r.p }))
  const xEnd = byTime ? tEnd / 1000 : Math.max(Number(endPosition), raw[raw.length - 1]!.p)
  const column = (x: number) => Math.round(((x - all[0]!.x) / Math.max(1e-9, xEnd - all[0]!.x)) * COLUMNS)
  const points = all.filter((p, i) => i === all.length - 1 || column(all[i + 1]!.x) !== column(p.x))
  const last = points[points.length - 1]!
  // The chart runs on to the audit's position, so the last step shows how long the balance stayed.
  if (xEnd > last.x) points.push({ ...last, x: xEnd })
  const n = (v: bigint) => Number(formatAmount(v, decimals))
  return { unit, byTime, x: points.map((p) => p.x), total: points.map((p) => n(p.total)), available: points.map((p) => n(p.available)) }
}

/** JSON inside a script element: `<` escaped so no text can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")

const chart = (s: Series, models: ReadModels, endPosition: bigint, unit: string): string => {
  const d = chartData(s, models, endPosition, unit)
  const label = d.byTime ? "balance over simulated time" : "balance over log position"
  return `<div class="chart" data-chart role="img" aria-label="${label}"><script type="application/json" class="series">${scriptJson(d)}</script></div>`
}

const css = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1f23;max-width:1100px}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}code{font-size:12px}
.ok{color:#116329}.bad{color:#a40e26}table{border-collapse:collapse;width:100%;font-size:12px}
td,th{border-bottom:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}
.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin:12px 0}
.chart{min-height:200px;max-width:640px}`

export const auditHtml = (r: AuditReport, models: ReadModels): string => {
  const asOf = BigInt(r.asOf.position)
  const rows = r.discrepancies
    .map(
      (d) =>
        `<tr><td>${esc(d.kind)}</td><td>${esc(d.message)}${d.address !== undefined ? `<br><code>${esc(`${d.blockchain}/${d.network} ${d.address} ${d.assetId}`)}</code>` : ""}</td><td>${d.events
          .map((e) => `<code>${esc(e.id)}</code> ${esc(e.type)} @${e.position}`)
          .join("<br>")}</td></tr>`,
    )
    .join("\n")
  const balances = r.balances
    .map(
      (b) =>
        `<tr><td><code>${esc(b.address)}</code><br>${esc(`${b.blockchain}/${b.network}`)}</td><td>${esc(b.symbol ?? b.assetId)}</td><td class="n">${esc(b.expected.totalAmount)}</td><td class="n">${esc(b.actual.totalAmount)}</td><td class="n">${esc(b.actual.availableAmount)}</td><td class="n">${esc(b.actual.blockedAmount)}</td><td class="n">${esc(b.actual.allocatedAmount)}</td><td>${esc(
          Object.entries(b.expected.byKind)
            .map(([k, v]) => `${k} ${v}`)
            .join(", "),
        )}</td></tr>`,
    )
    .join("\n")
  const charts = selectSeries(models, {}, r.asOf.position < 0 ? -1n : asOf)
    .map((s) => {
      const a = findAsset(s.assetId)
      return `<div class="card"><strong>${esc(a?.symbol ?? s.assetId)}</strong> <code>${esc(s.address.facts.address)}</code> ${esc(`${s.address.facts.blockchain}/${s.address.facts.network}`)} — ${s.entries.length} changes<br>${chart(s, models, asOf, a?.symbol ?? s.assetId)}</div>`
    })
    .join("\n")
  const script = chartScript()
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>custody-sim audit</title><style>${css}${script?.css ?? ""}</style></head>
<body>
<h1>custody-sim audit — <span class="${r.ok ? "ok" : "bad"}">${r.ok ? "OK" : `${r.summary.discrepancies} discrepancies`}</span></h1>
<p>As of position ${r.asOf.position}${r.asOf.timeMs !== null ? ` (${esc(timeText(r.asOf.timeMs))})` : ""}; ${r.events} events; ${r.summary.balances} balances; ${r.summary.deposits} confirmed deposits (${r.summary.depositsCredited} credited, ${r.summary.depositsPending} in flight, ${r.summary.depositsNotCredited} never credited); ${r.summary.credits} credits (${r.summary.creditsOfDeposits} of deposits, ${r.summary.creditsInternal} inside the workspace, ${r.summary.creditsUnmatched} unmatched); ${r.summary.withdrawals} mined withdrawals (${r.summary.withdrawalsDebited} debited, ${r.summary.withdrawalsPending} in flight, ${r.summary.withdrawalsNotDebited} never debited); ${r.summary.debits} debits (${r.summary.debitsOfWithdrawals} of withdrawals, ${r.summary.debitsUnmatched} unmatched).</p>
<p>Digest <code>${esc(shownDigest(r.digest.sha256))}</code> (${esc(r.digest.format)})</p>
<h2>Discrepancies</h2>
${r.discrepancies.length === 0 ? '<p class="ok">None.</p>' : `<table><tr><th>kind</th><th>what</th><th>events</th></tr>\n${rows}</table>`}
<h2>Balances</h2>
<table><tr><th>address</th><th>asset</th><th>events say</th><th>total</th><th>available</th><th>blocked</th><th>allocated</th><th>by effect</th></tr>
${balances}</table>
<h2>Balances over time</h2>
<p>Solid: total; dashed: available.${script === null ? ' <span class="bad">The charts need the built chart script (<code>npm run build:ui</code>); the tables above are complete.</span>' : ""}</p>
${charts}
${script === null ? "" : `<script type="module">${script.js}</script>`}
</body></html>
`
}
