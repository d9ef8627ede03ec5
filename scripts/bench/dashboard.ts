// The dashboard in headless Chromium against a 100,000-event log: first paint of the overview, and a timeline
// move re-rendering the vault view (p95), both measured in the browser beside a plain GET /_sim/health round trip
// from the same page; and signed GET /vaults req/s with the dashboard mounted vs without (it must cost nothing).
// Run alone: `npm run bench -- dashboard`.
import { createApp } from "../../src/api/app.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { buildUi } from "../build-ui.js"
import { launchChromium } from "../chromium.js"
import { httpVsBareHono, serveLocal } from "./lib/http.js"
import { planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"
import { startBenchSimulator } from "./lib/simulator.js"
import { median, quantile } from "./lib/stats.js"
import { absoluteAtMost, ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

// In the page (plain JS: the bench's TypeScript has no DOM types): fetches in flight, and the moment the overview's
// first vault link is on screen (a frame after it entered the DOM).
const PAGE_PROBES = `
  window.__inflight = 0; window.__started = 0
  const realFetch = window.fetch.bind(window)
  window.fetch = (...args) => { window.__inflight++; window.__started++; return realFetch(...args).finally(() => { window.__inflight-- }) }
  new MutationObserver((_, observer) => {
    if (document.querySelector('a[href^="#/vault/"]') === null) return
    observer.disconnect()
    requestAnimationFrame(() => { window.__overviewPainted = performance.now() })
  }).observe(document, { childList: true, subtree: true })
`

// Moves the timeline to each position and waits until every read the views started has answered and a frame was drawn.
const DRAGS = (positions: ReadonlyArray<number>) => `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(r))
  const slider = document.getElementById("timeline-slider")
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set
  const out = []
  for (const p of ${JSON.stringify(positions)}) {
    const started = window.__started
    const t0 = performance.now()
    setValue.call(slider, String(p))
    slider.dispatchEvent(new Event("input", { bubbles: true }))
    for (let i = 0; i < 2000 && (window.__started === started || window.__inflight > 0); i++) await frame()
    await frame()
    out.push(performance.now() - t0)
  }
  return out
})()`

const HEALTH = (n: number) => `(async () => {
  const out = []
  for (let i = 0; i < ${n}; i++) { const t0 = performance.now(); await (await fetch("/_sim/health")).json(); out.push(performance.now() - t0) }
  return out
})()`

const prng = (seed: number) => () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32
const ms = (x: number) => Math.round(x * 10) / 10

export const measureBrowser = async (options: { events: number; loads: number; drags: number; log: (line: string) => void }) => {
  await buildUi()
  const plan = await planLedgerLog(100)
  options.log(`generating ${options.events.toLocaleString("en-US")} events…`)
  const store = makeMemoryStore()
  await writeLedgerLog(store, plan, options.events)
  const sim = await openReplayed(store, null)
  const app = createApp(sim, { log: { error: () => {}, info: () => {} } })
  const served = await serveLocal(app.fetch)
  const browser = await launchChromium()
  try {
    const page = browser.page
    await page.addInitScript(PAGE_PROBES)
    await page.goto(`${served.origin}/ui/`)
    const login = await page.evaluate(
      `fetch("/ui/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: ${JSON.stringify(sim.adminToken)} }) }).then((r) => r.status)`,
    )
    if (login !== 200) throw new Error(`login answered ${String(login)}`)
    const paints: Array<number> = []
    for (let i = 0; i < options.loads; i++) {
      await page.goto("about:blank")
      await page.goto(`${served.origin}/ui/#/`)
      await page.waitForFunction(() => (globalThis as { __overviewPainted?: number }).__overviewPainted !== undefined, undefined, {
        timeout: 30_000,
      })
      paints.push(await page.evaluate<number>("window.__overviewPainted"))
    }
    await page.goto(`${served.origin}/ui/#/vault/${plan.vaultId}`)
    // The view opens on the vault's default account; the plan's addresses are in the accounts created after it.
    await page.locator(`ul.chips button:not([data-account="${plan.vaultId}"])`).first().click({ timeout: 30_000 })
    await page.locator("tr[data-address]").first().waitFor({ timeout: 30_000 })
    const head = Number(sim.models.position)
    const random = prng(11)
    const positions = Array.from({ length: options.drags }, () => Math.floor(plan.prefix.length + random() * (head - plan.prefix.length)))
    const drags = await page.evaluate<Array<number>>(DRAGS(positions))
    const health = await page.evaluate<Array<number>>(HEALTH(100))
    return { events: head + 1, paints, drags, health }
  } finally {
    await browser.close()
    await served.close()
    await sim.close()
  }
}

export const dashboard: Benchmark = {
  name: "dashboard",
  description:
    "dashboard in headless Chromium on a 100k-event log: overview first paint, timeline move re-rendering the vault view; GET /vaults with the dashboard mounted vs not",
  budget: absoluteAtMost(500, "ms"),
  run: async (options) => {
    const events = options.quick ? 20_000 : 100_000
    const b = await measureBrowser({ events, loads: options.quick ? 3 : 10, drags: options.quick ? 10 : 40, log: options.log })
    const health = { p50: ms(median(b.health)), p95: ms(quantile(b.health, 0.95)) }
    const beside = `GET /_sim/health from the page p50 ${health.p50} ms, p95 ${health.p95} ms`
    const paint: Measurement = {
      label: "overview first paint (median)",
      subject: ms(median(b.paints)),
      unit: "ms",
      note: `${b.events.toLocaleString("en-US")} events, ${b.paints.length} loads, max ${ms(Math.max(...b.paints))} ms; ${beside}`,
      samples: { subject: b.paints },
      budget: absoluteAtMost(500, "ms"),
      details: { healthP50: health.p50, healthP95: health.p95 },
    }
    const drag: Measurement = {
      label: "timeline move → vault view (p95)",
      subject: ms(quantile(b.drags, 0.95)),
      unit: "ms",
      note: `${b.drags.length} moves to random positions, median ${ms(median(b.drags))} ms; ${beside}`,
      samples: { subject: b.drags },
      budget: absoluteAtMost(150, "ms"),
      details: { median: ms(median(b.drags)), healthP50: health.p50, healthP95: health.p95 },
    }
    // The REST hot path with the dashboard mounted, against the same app without it (each vs a bare Hono route).
    const withUi = await startBenchSimulator()
    const withoutUi = await startBenchSimulator({ app: { dashboard: false } })
    try {
      const on = await httpVsBareHono({
        quick: options.quick,
        log: options.log,
        subject: withUi.app.fetch,
        request: { method: "GET", url: "/vaults" },
        sign: withUi.creds,
      })
      const off = await httpVsBareHono({
        quick: options.quick,
        log: options.log,
        subject: withoutUi.app.fetch,
        request: { method: "GET", url: "/vaults" },
        sign: withoutUi.creds,
      })
      const rest: Measurement = {
        label: "signed GET /vaults, dashboard on vs off",
        subject: on.ratio ?? on.subject / on.baseline!,
        baseline: off.ratio ?? off.subject / off.baseline!,
        unit: "× bare Hono",
        note: `on ${Math.round(on.subject)} req/s, off ${Math.round(off.subject)} req/s (each as a ratio to a bare route in the same run)`,
        budget: ratioAtLeast(0.9),
      }
      return [paint, drag, rest]
    } finally {
      await withUi.close()
      await withoutUi.close()
    }
  },
}
