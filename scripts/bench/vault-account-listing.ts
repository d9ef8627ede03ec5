// Listing 10,000 vault accounts page by page (50 a page, `startingAfter`) at 2026-03-20 through the API, vs the same
// number of single signed GET /vaults requests, over one socket server in the same run (issue budget: ≥ 0.5×).
// Every 10th account holds ETH at an address of its own, so pages carry balances as an integrator's would.
import { fileURLToPath } from "node:url"
import { CustodyClient } from "../../src/client/index.js"
import { assetsOf } from "../../src/domain/chains/index.js"
import { serveLocal, startLoadGenerator, type LoadGenerator } from "./lib/http.js"
import { startBenchSimulator } from "./lib/simulator.js"
import { fmt, median } from "./lib/stats.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

const ACCOUNTS = 10_000
const PAGE = 50
const pages = fileURLToPath(new URL("./lib/listing-requests.ts", import.meta.url))

export const vaultAccountListing: Benchmark = {
  name: "vault-account-listing",
  description: `listing ${ACCOUNTS.toLocaleString("en-US")} vault accounts at 2026-03-20, ${PAGE} a page, requests/s vs single signed GET /vaults requests/s (same app, same run)`,
  budget: ratioAtLeast(0.5),
  run: async (options) => {
    const bench = await startBenchSimulator({
      fixture: {
        seed: "bench",
        vaults: [{ name: "Accounts", type: "test", color: "#2E7D32", backuped: true }],
        apiKeys: [
          { name: "listing", apiVersion: "2026-03-20", rateLimit: { perSecond: 1e9, burst: 1e9 } },
          { name: "spare", apiVersion: "2026-03-20", rateLimit: { perSecond: 1e9, burst: 1e9 } },
        ],
      },
    })
    const creds = bench.creds
    const client = new CustodyClient({ baseUrl: "http://bench", credentials: creds, fetch: (r) => Promise.resolve(bench.app.fetch(r)) })
    const vaultId = bench.sim.models.workspace.vaultList(undefined)[0]!.profile.vaultId
    const eth = assetsOf({ blockchain: "ethereum", network: "sepolia" }).find((a) => a.symbol === "ETH")!.id
    const served = await serveLocal(bench.app.fetch)
    let gen: LoadGenerator | undefined
    try {
      const made = performance.now()
      for (let i = 0; i < ACCOUNTS; i++) {
        const r = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${vaultId}/vault-account`, {
          item: { name: `account ${i}`, color: "#000000", isHiddenInDashboard: false },
        })
        if (r.status !== 201) throw new Error(`account ${i}: ${r.status} ${JSON.stringify(r.body)}`)
        if (i % 10 === 0)
          await client.call("PUT", `/vaults/${vaultId}/vault-accounts/${r.body.data.item.vaultAccountId}/add-asset`, {
            item: { assetId: eth, label: `a${i}` },
          })
      }
      options.log(`  ${ACCOUNTS} accounts made in ${fmt(performance.now() - made)} ms`)
      // The page URLs, walked once through the API as an integrator would (the cursor is the last id of a page).
      const urls: Array<string> = []
      let after: string | undefined
      for (;;) {
        const url = `/vaults/${vaultId}/vault-accounts/details?limit=${PAGE}${after !== undefined ? `&startingAfter=${after}` : ""}`
        const r = await client.call<{ items: ReadonlyArray<{ vaultAccountId: string }>; hasMore: boolean }>("GET", url)
        if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`)
        urls.push(url)
        const items = r.body.data.items
        if (!r.body.data.hasMore) break
        after = items[items.length - 1]!.vaultAccountId
      }
      const listed = Math.ceil((ACCOUNTS + 1) / PAGE)
      if (urls.length !== listed) throw new Error(`walked ${urls.length} pages, expected ${listed}`)

      gen = await startLoadGenerator()
      const durationMs = options.quick ? 1_000 : 2_000
      const rounds = options.quick ? 1 : 7
      let n = 0
      // The server's CPU per request is reported beside the throughput: it does not depend on whether the load
      // generator (signing every request) keeps the server saturated.
      const cpu: Map<ReadonlyArray<string>, Array<number>> = new Map()
      const load = async (list: ReadonlyArray<string>, ms: number) => {
        const cpu0 = process.cpuUsage()
        const r = await gen!.run({
          origin: served.origin,
          request: { method: "GET", url: list[0]! },
          requestModule: pages,
          requestParams: list,
          sign: creds,
          connections: 10,
          pipelining: 1,
          durationMs: ms,
          firstN: n,
        })
        n += r.sent + 1
        const used = process.cpuUsage(cpu0)
        cpu.set(list, [...(cpu.get(list) ?? []), (used.user + used.system) / r.ok])
        if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.ok === 0)
          throw new Error(`${r.ok} ok, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`)
        return r.perSecond
      }
      const single = ["/vaults"]
      await load(urls, options.quick ? 300 : 1_500)
      await load(single, options.quick ? 300 : 1_500)
      const subject: Array<number> = []
      const baseline: Array<number> = []
      const ratios: Array<number> = []
      for (let round = 0; round < rounds; round++) {
        const [s, b] =
          round % 2 === 0
            ? [await load(urls, durationMs), await load(single, durationMs)]
            : (([b2, s2]) => [s2, b2])([await load(single, durationMs), await load(urls, durationMs)])
        subject.push(s!)
        baseline.push(b!)
        ratios.push(s! / b!)
        options.log(
          `  round ${round + 1}/${rounds}: pages ${fmt(s!)} req/s, GET /vaults ${fmt(b!)} req/s, ratio ${ratios[round]!.toFixed(3)}`,
        )
      }
      const pagesPerSecond = median(subject)
      return {
        subject: pagesPerSecond,
        baseline: median(baseline),
        unit: "req/s",
        ratio: median(ratios),
        note: `server CPU ${fmt(median(cpu.get(urls)!))} vs ${fmt(median(cpu.get(single)!))} µs/req; ${urls.length} pages of ${PAGE}; the whole listing takes ${fmt((urls.length / pagesPerSecond) * 1000)} ms at that rate; 10 connections, ${rounds}×${durationMs / 1000}s per side`,
        samples: { subject, baseline, ratios },
      }
    } finally {
      await gen?.close()
      await served.close()
      await bench.close()
    }
  },
}
