// The audit report as one self-contained HTML page: inline CSS, and an SVG step chart of each balance over time
// (or over log position when time stood still), with labelled axes.
import { findAsset } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"
import type { ReadModels } from "../projections/read-models.js"
import type { AuditReport } from "./audit.js"
import { selectSeries, type Series } from "./balance-history.js"

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const W = 640
const H = 170
const PAD = { left: 8, right: 8, top: 12, bottom: 22 }

/**
 * Step chart of total (solid) and available (dashed) after each change, both on one amount scale. x is simulated
 * time, or the log position when time did not move over the chart (a frozen clock, the testing default).
 */
const chart = (s: Series, models: ReadModels, endPosition: bigint, unit: string): string => {
  const decimals = findAsset(s.assetId)?.decimals ?? 0
  const timeOf = (p: bigint) => models.timeline.timeAt(p) ?? 0
  const raw = s.entries.map(([p, b]) => ({ p: Number(p), t: timeOf(p), total: b.total, available: b.available }))
  const tEnd = Math.max(timeOf(endPosition), raw[raw.length - 1]!.t)
  const byTime = tEnd > raw[0]!.t
  const all = raw.map((r) => ({ ...r, t: byTime ? r.t : r.p }))
  const xEnd = byTime ? tEnd : Math.max(Number(endPosition), raw[raw.length - 1]!.p)
  // At most one point per pixel column (the last change in it): a long history stays a small page.
  const column = (t: number) => Math.round(((t - all[0]!.t) / Math.max(1, xEnd - all[0]!.t)) * (W - PAD.left - PAD.right))
  const points = all.filter((p, i) => i === all.length - 1 || column(all[i + 1]!.t) !== column(p.t))
  const t0 = points[0]!.t
  const t1 = xEnd
  const max = points.reduce((m, p) => (p.total > m ? p.total : m), 0n)
  const min = points.reduce((m, p) => (p.available < m ? p.available : m), 0n)
  const span = max - min === 0n ? 1n : max - min
  const x = (t: number) => PAD.left + (t1 === t0 ? 0 : ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right))
  // bigint scaling keeps 18-decimal amounts exact enough for pixels.
  const y = (v: bigint) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - Number(((v - min) * 10_000n) / span) / 10_000)
  const steps = (pick: (p: (typeof points)[number]) => bigint) => {
    const out: Array<string> = []
    points.forEach((p, i) => {
      if (i > 0) out.push(`${x(p.t).toFixed(1)},${y(pick(points[i - 1]!)).toFixed(1)}`)
      out.push(`${x(p.t).toFixed(1)},${y(pick(p)).toFixed(1)}`)
    })
    out.push(`${x(t1).toFixed(1)},${y(pick(points[points.length - 1]!)).toFixed(1)}`)
    return out.join(" ")
  }
  const tick = (t: number) => (byTime ? new Date(t).toISOString().replace(".000Z", "Z") : `position ${t}`)
  const amount = (v: bigint) => `${formatAmount(v, decimals)} ${unit}`
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${byTime ? "balance over simulated time" : "balance over log position"}">
  <line x1="${PAD.left}" y1="${y(0n).toFixed(1)}" x2="${W - PAD.right}" y2="${y(0n).toFixed(1)}" class="axis"/>
  <polyline points="${steps((p) => p.available)}" class="available"/>
  <polyline points="${steps((p) => p.total)}" class="total"/>
  <text x="${PAD.left}" y="${PAD.top - 2}" class="label">${esc(amount(max))}</text>
  ${min < 0n ? `<text x="${PAD.left}" y="${(y(min) - 3).toFixed(1)}" class="label">${esc(amount(min))}</text>` : ""}
  <text x="${W - PAD.right}" y="${PAD.top - 2}" class="label end">y: amount (${esc(unit)}), one scale for total and available</text>
  <text x="${PAD.left}" y="${H - 6}" class="label">${esc(tick(t0))}</text>
  <text x="${W / 2}" y="${H - 6}" class="label mid">x: ${byTime ? "simulated time (UTC)" : "log position (simulated time did not move)"}</text>
  <text x="${W - PAD.right}" y="${H - 6}" class="label end">${esc(tick(t1))}</text>
</svg>`
}

const css = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1f23;max-width:1100px}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}code{font-size:12px}
.ok{color:#116329}.bad{color:#a40e26}table{border-collapse:collapse;width:100%;font-size:12px}
td,th{border-bottom:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}
.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin:12px 0}
svg .axis{stroke:#8c959f;stroke-width:1}svg .total{fill:none;stroke:#0969da;stroke-width:2}
svg .available{fill:none;stroke:#1a7f37;stroke-width:1.5;stroke-dasharray:5 3}svg .label{font-size:11px;fill:#57606a}svg .end{text-anchor:end}svg .mid{text-anchor:middle}`

export const auditHtml = (r: AuditReport, models: ReadModels): string => {
  const asOf = BigInt(r.asOf.position)
  const rows = r.discrepancies
    .map(
      (d) => `<tr><td>${esc(d.kind)}</td><td>${esc(d.message)}${d.address !== undefined ? `<br><code>${esc(`${d.blockchain}/${d.network} ${d.address} ${d.assetId}`)}</code>` : ""}</td><td>${d.events
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
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>custody-sim audit</title><style>${css}</style></head>
<body>
<h1>custody-sim audit — <span class="${r.ok ? "ok" : "bad"}">${r.ok ? "OK" : `${r.summary.discrepancies} discrepancies`}</span></h1>
<p>As of position ${r.asOf.position}${r.asOf.timeMs !== null ? ` (${esc(new Date(r.asOf.timeMs).toISOString())})` : ""}; ${r.events} events; ${r.summary.balances} balances; ${r.summary.deposits} confirmed deposits (${r.summary.credits} credits); ${r.summary.withdrawals} mined withdrawals (${r.summary.debits} debits); ${r.summary.pending} in flight.</p>
<p>Digest <code>sha256:${esc(r.digest.sha256)}</code> (${esc(r.digest.format)})</p>
<h2>Discrepancies</h2>
${r.discrepancies.length === 0 ? "<p class=\"ok\">None.</p>" : `<table><tr><th>kind</th><th>what</th><th>events</th></tr>\n${rows}</table>`}
<h2>Balances</h2>
<table><tr><th>address</th><th>asset</th><th>events say</th><th>total</th><th>available</th><th>blocked</th><th>allocated</th><th>by effect</th></tr>
${balances}</table>
<h2>Balances over time</h2>
<p>Solid: total; dashed: available.</p>
${charts}
</body></html>
`
}
