// Webhook deliveries/s to a local receiver (a separate process) and how much they slow signed GET /vaults:
// reads/s measured alone and with deliveries in flight, in interleaved rounds of the same run.
// Budget (issue #6): ≥ 2,000 deliveries/s with reads slowed by ≤ 20%. Run: npm run bench -- webhooks, or
// npx tsx scripts/bench/webhooks.ts [--quick] [--node-http-receiver] [--no-thread]
// Notifications are appended in bulk as the ledger raises them: the deposit pipeline is not what is measured.
import { readFileSync } from "node:fs"
import { cpus } from "node:os"
import { pathToFileURL } from "node:url"
import { Effect, Exit } from "effect"
import { createApp } from "../../src/api/app.js"
import { toNewEvents } from "../../src/commands/run-decider.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { EventStore } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startWebhookWorker } from "../../src/webhooks/worker.js"
import { serveLocal, startLoadGenerator } from "./lib/http.js"
import { benchFixture } from "./lib/simulator.js"
import { startBenchReceiver, type ReceiverKind } from "./lib/webhook-receiver.js"
import { fmt, fullGc, median, sleep } from "./lib/stats.js"
import { absoluteAtLeast, ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

const raiseNotifications = async (sim: Simulator, vaultId: string, count: number) => {
  for (let done = 0; done < count; done += 500) {
    const n = Math.min(500, count - done)
    const exit = await sim.run(
      Effect.gen(function* () {
        const at = sim.clock.now()
        const events = yield* toNewEvents(
          Array.from({ length: n }, (_, i) => {
            const txid = `0x${(done + i).toString(16).padStart(64, "0")}`
            const payload = { blockchain: "ethereum", network: "sepolia", address: "0x9238400d0A36a285036B4B5f98d1016Dc2Cb1018", amount: "1.5", unit: "ETH", transactionId: txid, minedInBlockHeight: 1, minedInBlockHash: `0x${"ab".repeat(32)}`, currentConfirmations: 1, targetConfirmations: 1 }
            return { type: "NotificationRaised", data: { vaultId, kind: "INCOMING_CONFIRMED_COIN_TX", subject: txid, payload, at } }
          }),
        )
        const r = yield* (yield* EventStore).append(`benchNotifications-${sim.ids.next("transaction")}`, events, "no_stream")
        yield* sim.runner.awaitPosition(r.position)
      }),
    )
    if (Exit.isFailure(exit)) throw new Error(`raising notifications failed: ${String(exit.cause)}`)
  }
}

// CPU milliseconds of this process's main thread and of the whole machine (Linux /proc; zeros elsewhere), to
// tell a slowdown the deliveries cause from one other tenants of a shared machine cause.
const cpu = () => {
  try {
    const ticks = (path: string) => readFileSync(path, "utf8").split(") ")[1]!.split(" ")
    const t = ticks(`/proc/self/task/${process.pid}/stat`)
    const all = readFileSync("/proc/stat", "utf8").split("\n")[0]!.split(/\s+/).slice(1).map(Number)
    return { main: (Number(t[11]) + Number(t[12])) * 10, machine: (all[0]! + all[1]! + all[2]! + all[5]! + all[6]! + all[7]!) * 10, at: performance.now() }
  } catch {
    return { main: 0, machine: 0, at: performance.now() }
  }
}

export interface WebhookBenchOptions {
  readonly quick?: boolean
  readonly receiver?: ReceiverKind
  /** The delivery worker's HTTP client on its own thread, as `custody-sim serve` runs it (default), or on the API's event loop. */
  readonly thread?: boolean
  readonly log?: (line: string) => void
}

export interface WebhookBenchResult {
  /** Deliveries answered per second while reads were measured (median over rounds). */
  readonly deliveriesPerSecond: number
  /** 1 − median over rounds of (reads/s with deliveries in flight ÷ reads/s alone). */
  readonly readSlowdown: number
  readonly readsPerSecondAlone: number
  readonly readsPerSecondWithDeliveries: number
  /** Main-thread CPU per delivery, µs: (main CPU with − reads × main CPU per read alone) ÷ deliveries. */
  readonly mainThreadMicrosPerDelivery: number
  /** The same for the whole process: the API's thread, the delivery thread, the garbage collector's helpers. */
  readonly processMicrosPerDelivery: number
  /** Per round: reads/s alone and with deliveries, their ratio, deliveries/s (acknowledged and recorded). */
  readonly samples: { readonly alone: ReadonlyArray<number>; readonly with: ReadonlyArray<number>; readonly ratios: ReadonlyArray<number>; readonly deliveries: ReadonlyArray<number> }
}

export const benchWebhooks = async (options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> => {
  const log = options.log ?? ((line: string) => console.error(line))
  const rounds = options.quick ? 1 : 9
  const windowMs = options.quick ? 1_500 : 2_000
  const subscriptions = 4
  const receiver = await startBenchReceiver(options.receiver ?? "lean")
  const sim = await createSimulator({ store: makeMemoryStore(), fixture: benchFixture, webhooks: false })
  const app = createApp(sim, { log: { error: () => {}, info: () => {} } })
  const served = await serveLocal(app.fetch)
  const gen = await startLoadGenerator()
  const vaultId = sim.models.workspace.vaultList(undefined)[0]!.profile.vaultId
  const host = { outbox: sim.models.outbox, clock: sim.clock, run: sim.run, awaitPosition: sim.runner.awaitPosition }
  try {
    for (let i = 0; i < subscriptions; i++) {
      const res = await app.request("/_sim/webhooks", {
        method: "POST",
        headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, secret: `bench-secret-${i}`, events: ["*"] }),
      })
      const body = (await res.json()) as { status?: string }
      if (body.status !== "active") throw new Error(`subscription not verified: ${JSON.stringify(body)}`)
    }
    const reads = async (ms: number) => {
      const before = cpu()
      const process0 = process.cpuUsage()
      const r = await gen.run({ origin: served.origin, request: { method: "GET", url: "/vaults" }, sign: sim.createdCredentials[0]!, connections: 10, pipelining: 1, durationMs: ms, firstN: 0 })
      if (r.non2xx > 0 || r.errors > 0 || r.ok === 0) throw new Error(`reads: ${r.ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors`)
      const after = cpu()
      const used = process.cpuUsage(process0)
      const seconds = (after.at - before.at) / 1000
      return { perSecond: r.perSecond, ok: r.ok, mainMs: after.main - before.main, processMs: (used.user + used.system) / 1000, machine: (after.machine - before.machine) / seconds / 10 }
    }
    const alone = async (ms: number) => {
      fullGc()
      return reads(ms)
    }
    // The worker runs only in these windows, over a backlog that never runs dry (the default pace holds it back).
    const withDeliveries = async (ms: number) => {
      const missing = Math.ceil((ms / 1000) * 6_000) - sim.models.outbox.pending().length
      if (missing > 0) await raiseNotifications(sim, vaultId, Math.ceil(missing / subscriptions))
      fullGc()
      const worker = startWebhookWorker(host, { thread: options.thread ?? true })
      // Measured from 200 ms after the first recorded attempt: connections (and the delivery thread) are up.
      while (worker.stats().attempts === 0) await sleep(10)
      await sleep(200)
      const before = { acknowledged: await receiver.count(), recorded: worker.stats().delivered }
      const t0 = performance.now()
      const r = await reads(ms)
      const seconds = (performance.now() - t0) / 1000
      const acknowledged = ((await receiver.count()) - before.acknowledged) / seconds
      const recorded = (worker.stats().delivered - before.recorded) / seconds
      await worker.stop()
      // A delivery counts once the receiver answered 2xx and the attempt is an event in the log.
      return { ...r, deliveries: Math.min(acknowledged, recorded), acknowledged, recorded }
    }
    await alone(500)
    await withDeliveries(500)
    const ratios: Array<number> = []
    const samples = { alone: [] as Array<number>, with: [] as Array<number>, deliveries: [] as Array<number>, mainCost: [] as Array<number>, processCost: [] as Array<number> }
    for (let round = 0; round < rounds; round++) {
      const first = round % 2 === 0 ? await alone(windowMs) : await withDeliveries(windowMs)
      const second = round % 2 === 0 ? await withDeliveries(windowMs) : await alone(windowMs)
      const [a, w] = round % 2 === 0 ? [first, second as Awaited<ReturnType<typeof withDeliveries>>] : [second, first as Awaited<ReturnType<typeof withDeliveries>>]
      const costOf = (withMs: number, aloneMs: number) => ((withMs - (w.ok * aloneMs) / a.ok) * 1000) / (w.deliveries * (windowMs / 1000))
      const mainCost = costOf(w.mainMs, a.mainMs)
      const processCost = costOf(w.processMs, a.processMs)
      ratios.push(w.perSecond / a.perSecond)
      samples.alone.push(a.perSecond)
      samples.with.push(w.perSecond)
      samples.deliveries.push(w.deliveries)
      samples.mainCost.push(mainCost)
      samples.processCost.push(processCost)
      log(
        `  round ${round + 1}/${rounds}: reads ${fmt(a.perSecond)}/s alone, ${fmt(w.perSecond)}/s with ${fmt(w.deliveries)} deliveries/s ` +
          `(ratio ${(w.perSecond / a.perSecond).toFixed(3)}); main thread busy ${fmt(a.mainMs / windowMs * 100)}%/${fmt(w.mainMs / windowMs * 100)}%, ${fmt(mainCost)} µs/delivery (whole process ${fmt(processCost)}); machine busy ${fmt(a.machine)}%/${fmt(w.machine)}% of ${100 * cpus().length}%`,
      )
    }
    return {
      deliveriesPerSecond: median(samples.deliveries),
      readSlowdown: 1 - median(ratios),
      readsPerSecondAlone: median(samples.alone),
      readsPerSecondWithDeliveries: median(samples.with),
      mainThreadMicrosPerDelivery: median(samples.mainCost),
      processMicrosPerDelivery: median(samples.processCost),
      samples: { alone: samples.alone, with: samples.with, ratios, deliveries: samples.deliveries },
    }
  } finally {
    await gen.close()
    await served.close()
    await sim.close()
    await receiver.close()
  }
}

export const webhooks: Benchmark = {
  name: "webhooks",
  description: "webhook deliveries/s to a receiver process (answered 2xx and recorded) while signed GET /vaults is measured, vs reads alone in the same run",
  budget: ratioAtLeast(0.8),
  run: async (options) => {
    const r = await benchWebhooks({ quick: options.quick, log: options.log })
    const rounds = `${r.samples.ratios.length} interleaved rounds`
    const measurements: ReadonlyArray<Measurement> = [
      {
        label: "deliveries",
        subject: r.deliveriesPerSecond,
        unit: "deliveries/s",
        budget: absoluteAtLeast(2_000, "deliveries/s"),
        note: `median of ${rounds}, counted while reads were measured (slowest round ${fmt(Math.min(...r.samples.deliveries))}/s); CPU per delivery: API thread ${fmt(r.mainThreadMicrosPerDelivery)} µs, whole process ${fmt(r.processMicrosPerDelivery)} µs`,
        samples: { subject: r.samples.deliveries },
        details: { mainThreadMicrosPerDelivery: r.mainThreadMicrosPerDelivery, processMicrosPerDelivery: r.processMicrosPerDelivery },
      },
      {
        label: "signed-reads",
        subject: r.readsPerSecondWithDeliveries,
        baseline: r.readsPerSecondAlone,
        ratio: 1 - r.readSlowdown,
        unit: "req/s",
        note: `reads with deliveries in flight vs alone: slowdown ${(r.readSlowdown * 100).toFixed(1)}% (median of ${rounds}' ratios; budget ≤ 20%)`,
        samples: { subject: r.samples.with, baseline: r.samples.alone, ratios: r.samples.ratios },
        details: { readSlowdown: r.readSlowdown },
      },
    ]
    return measurements
  },
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchWebhooks({
    quick: process.argv.includes("--quick"),
    thread: !process.argv.includes("--no-thread"),
    ...(process.argv.includes("--node-http-receiver") ? { receiver: "node-http" as const } : {}),
  })
  console.log(
    `webhooks: ${fmt(r.deliveriesPerSecond)} deliveries/s (budget ≥ 2,000); signed GET /vaults ${fmt(r.readsPerSecondAlone)}/s alone, ` +
      `${fmt(r.readsPerSecondWithDeliveries)}/s with deliveries: slowdown ${(r.readSlowdown * 100).toFixed(1)}% (budget ≤ 20%); ` +
      `CPU per delivery: API thread ${fmt(r.mainThreadMicrosPerDelivery)} µs, whole process ${fmt(r.processMicrosPerDelivery)} µs`,
  )
}
