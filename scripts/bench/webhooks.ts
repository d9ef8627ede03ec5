// Webhook deliveries/s to a local receiver (a separate process), the whole process's CPU per delivery against a
// bare undici POST of the same signed body to the same receiver, and how much deliveries slow signed GET /vaults:
// reads/s measured alone and with deliveries in flight, in interleaved rounds of the same run.
// Budgets: ≥ 2,000 deliveries/s; CPU per delivery ≤ 1.5× the bare POST's (the read slowdown is reported beside
// them: on two shared cores it measures the machine more than the code). Run: npm run bench -- webhooks, or
// npx tsx scripts/bench/webhooks.ts [--quick] [--node-http-receiver] [--no-thread]
// Notifications are appended in bulk as the ledger raises them: the deposit pipeline is not what is measured.
import { readFileSync } from "node:fs"
import { cpus } from "node:os"
import { pathToFileURL } from "node:url"
import { createHmac, createSecretKey } from "node:crypto"
import { Effect, Exit } from "effect"
import { Agent, type Dispatcher } from "undici"
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
import { absoluteAtLeast, ratioAtMost, type Benchmark, type Measurement } from "./lib/types.js"

const raiseNotifications = async (sim: Simulator, vaultId: string, count: number) => {
  for (let done = 0; done < count; done += 500) {
    const n = Math.min(500, count - done)
    const exit = await sim.run(
      Effect.gen(function* () {
        const at = sim.clock.now()
        const events = yield* toNewEvents(
          Array.from({ length: n }, (_, i) => {
            const txid = `0x${(done + i).toString(16).padStart(64, "0")}`
            const payload = {
              blockchain: "ethereum",
              network: "sepolia",
              address: "0x9238400d0A36a285036B4B5f98d1016Dc2Cb1018",
              amount: "1.5",
              unit: "ETH",
              transactionId: txid,
              minedInBlockHeight: 1,
              minedInBlockHash: `0x${"ab".repeat(32)}`,
              currentConfirmations: 1,
              targetConfirmations: 1,
            }
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
    return {
      main: (Number(t[11]) + Number(t[12])) * 10,
      machine: (all[0]! + all[1]! + all[2]! + all[5]! + all[6]! + all[7]!) * 10,
      at: performance.now(),
    }
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
  /** Whole-process CPU per delivery with nothing else running (deliveries alone, no reads), µs. */
  readonly deliveryMicrosAlone: number
  /** Whole-process CPU per bare undici POST of a delivery's body (signed per request) to the same receiver, µs. */
  readonly bareMicrosPerPost: number
  /** Bare POSTs/s in those windows (paced as the worker is). */
  readonly barePerSecond: number
  /** Per round: reads/s alone and with deliveries, their ratio, deliveries/s (acknowledged and recorded). */
  readonly samples: {
    readonly alone: ReadonlyArray<number>
    readonly with: ReadonlyArray<number>
    readonly ratios: ReadonlyArray<number>
    readonly deliveries: ReadonlyArray<number>
    /** Per round: CPU per delivery alone, per bare POST, and their ratio. */
    readonly deliveryCost: ReadonlyArray<number>
    readonly bareCost: ReadonlyArray<number>
    readonly costRatios: ReadonlyArray<number>
  }
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
  const bareAgent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 4_000 })
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
      const r = await gen.run({
        origin: served.origin,
        request: { method: "GET", url: "/vaults" },
        sign: sim.createdCredentials[0]!,
        connections: 10,
        pipelining: 1,
        durationMs: ms,
        firstN: 0,
      })
      if (r.non2xx > 0 || r.errors > 0 || r.ok === 0) throw new Error(`reads: ${r.ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors`)
      const after = cpu()
      const used = process.cpuUsage(process0)
      const seconds = (after.at - before.at) / 1000
      return {
        perSecond: r.perSecond,
        ok: r.ok,
        mainMs: after.main - before.main,
        processMs: (used.user + used.system) / 1000,
        machine: (after.machine - before.machine) / seconds / 10,
      }
    }
    const alone = async (ms: number) => {
      fullGc()
      return reads(ms)
    }
    // The worker runs only in these windows, over a backlog that never runs dry (the default pace holds it back).
    // Measured from 200 ms after the first recorded attempt: connections (and the delivery thread) are up.
    const startDelivering = async (ms: number) => {
      const missing = Math.ceil((ms / 1000) * 6_000) - sim.models.outbox.pending().length
      if (missing > 0) await raiseNotifications(sim, vaultId, Math.ceil(missing / subscriptions))
      fullGc()
      const worker = startWebhookWorker(host, { thread: options.thread ?? true })
      while (worker.stats().attempts === 0) await sleep(10)
      await sleep(200)
      return { worker, before: { acknowledged: await receiver.count(), recorded: worker.stats().delivered } }
    }
    const withDeliveries = async (ms: number) => {
      const { worker, before } = await startDelivering(ms)
      const t0 = performance.now()
      const r = await reads(ms)
      const seconds = (performance.now() - t0) / 1000
      const acknowledged = ((await receiver.count()) - before.acknowledged) / seconds
      const recorded = (worker.stats().delivered - before.recorded) / seconds
      await worker.stop()
      // A delivery counts once the receiver answered 2xx and the attempt is an event in the log.
      return { ...r, deliveries: Math.min(acknowledged, recorded), acknowledged, recorded }
    }
    /** Deliveries with nothing else running: the whole process's CPU per delivery. */
    const deliveriesAlone = async (ms: number) => {
      const { worker, before } = await startDelivering(ms)
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      await sleep(ms)
      const used = process.cpuUsage(cpu0)
      const seconds = (performance.now() - t0) / 1000
      const acknowledged = (await receiver.count()) - before.acknowledged
      const recorded = worker.stats().delivered - before.recorded
      await worker.stop()
      const count = Math.min(acknowledged, recorded)
      return { perSecond: count / seconds, micros: (used.user + used.system) / count }
    }
    // The baseline: a delivery's body as the receiver got it, POSTed through undici's dispatcher interface (its
    // cheapest: no Promise, no body stream; request() costs more) on a keep-alive Agent with the worker's connection
    // bound, signed per request (HMAC-SHA256 of the body, as the worker signs), started in 10 ms ticks at the
    // worker's default pace (2,500/s); the CPU of this whole process per POST answered 200. What the worker adds
    // on top is its queues, the hand-over to its thread and the recording of each attempt as an event.
    await withDeliveries(300)
    const sample = await receiver.sample()
    if (sample === undefined) throw new Error("the receiver saw no delivery to copy")
    const bareKey = createSecretKey(Buffer.from("bench-secret-0", "utf8"))
    const encoding = /^[0-9a-f]{64}$/.test(sample.signature) ? "hex" : "base64"
    const target = new URL(receiver.url)
    const bare = async (ms: number) => {
      fullGc()
      const rate = 2_500
      let inFlight = 0
      let answered = 0
      let failed = 0
      let started = 0
      const post = () => {
        inFlight++
        started++
        const headers = {
          "content-type": "application/json",
          "user-agent": "custody-sim-webhooks/1",
          "x-signature": createHmac("sha256", bareKey).update(sample.body, "utf8").digest(encoding),
        }
        let status = 0
        const handler: Dispatcher.DispatchHandler = {
          onRequestStart: () => {},
          onResponseStart: (_controller, statusCode) => void (status = statusCode),
          onResponseData: () => {},
          onResponseEnd: () => {
            inFlight--
            if (status === 200) answered++
            else failed++
          },
          onResponseError: () => {
            inFlight--
            failed++
          },
        }
        bareAgent.dispatch({ origin: target.origin, path: target.pathname, method: "POST", headers, body: sample.body }, handler)
      }
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      const ticker = setInterval(() => {
        const due = Math.floor(((performance.now() - t0) / 1000) * rate) - started
        for (let i = 0; i < due && inFlight < 64; i++) post()
      }, 10)
      await sleep(ms)
      clearInterval(ticker)
      for (const until = performance.now() + 5_000; inFlight > 0 && performance.now() < until; ) await sleep(1)
      const used = process.cpuUsage(cpu0)
      const seconds = (performance.now() - t0) / 1000
      if (failed > 0 || answered === 0) throw new Error(`bare POSTs: ${answered} answered 200, ${failed} failed`)
      return { perSecond: answered / seconds, micros: (used.user + used.system) / answered }
    }
    await alone(500)
    await withDeliveries(500)
    await deliveriesAlone(500)
    await bare(500)
    const ratios: Array<number> = []
    const samples = {
      alone: [] as Array<number>,
      with: [] as Array<number>,
      deliveries: [] as Array<number>,
      mainCost: [] as Array<number>,
      processCost: [] as Array<number>,
      deliveryCost: [] as Array<number>,
      bareCost: [] as Array<number>,
      costRatios: [] as Array<number>,
      barePerSecond: [] as Array<number>,
    }
    for (let round = 0; round < rounds; round++) {
      const first = round % 2 === 0 ? await alone(windowMs) : await withDeliveries(windowMs)
      const second = round % 2 === 0 ? await withDeliveries(windowMs) : await alone(windowMs)
      const [a, w] =
        round % 2 === 0
          ? [first, second as Awaited<ReturnType<typeof withDeliveries>>]
          : [second, first as Awaited<ReturnType<typeof withDeliveries>>]
      const costOf = (withMs: number, aloneMs: number) => ((withMs - (w.ok * aloneMs) / a.ok) * 1000) / (w.deliveries * (windowMs / 1000))
      const mainCost = costOf(w.mainMs, a.mainMs)
      const processCost = costOf(w.processMs, a.processMs)
      ratios.push(w.perSecond / a.perSecond)
      samples.alone.push(a.perSecond)
      samples.with.push(w.perSecond)
      samples.deliveries.push(w.deliveries)
      samples.mainCost.push(mainCost)
      samples.processCost.push(processCost)
      // CPU per delivery against a bare POST of the same body, the two windows in alternating order.
      const d = round % 2 === 0 ? await deliveriesAlone(windowMs) : undefined
      const b = await bare(windowMs)
      const dd = d ?? (await deliveriesAlone(windowMs))
      samples.deliveryCost.push(dd.micros)
      samples.bareCost.push(b.micros)
      samples.costRatios.push(dd.micros / b.micros)
      samples.barePerSecond.push(b.perSecond)
      log(
        `  round ${round + 1}/${rounds}: whole-process CPU ${fmt(dd.micros)} µs per delivery (${fmt(dd.perSecond)}/s, nothing else running) vs ${fmt(b.micros)} µs per bare undici POST (${fmt(b.perSecond)}/s): ${(dd.micros / b.micros).toFixed(2)}×`,
      )
      log(
        `  round ${round + 1}/${rounds}: reads ${fmt(a.perSecond)}/s alone, ${fmt(w.perSecond)}/s with ${fmt(w.deliveries)} deliveries/s ` +
          `(ratio ${(w.perSecond / a.perSecond).toFixed(3)}); main thread busy ${fmt((a.mainMs / windowMs) * 100)}%/${fmt((w.mainMs / windowMs) * 100)}%, ${fmt(mainCost)} µs/delivery (whole process ${fmt(processCost)}); machine busy ${fmt(a.machine)}%/${fmt(w.machine)}% of ${100 * cpus().length}%`,
      )
    }
    return {
      deliveriesPerSecond: median(samples.deliveries),
      readSlowdown: 1 - median(ratios),
      readsPerSecondAlone: median(samples.alone),
      readsPerSecondWithDeliveries: median(samples.with),
      mainThreadMicrosPerDelivery: median(samples.mainCost),
      processMicrosPerDelivery: median(samples.processCost),
      deliveryMicrosAlone: median(samples.deliveryCost),
      bareMicrosPerPost: median(samples.bareCost),
      barePerSecond: median(samples.barePerSecond),
      samples: {
        alone: samples.alone,
        with: samples.with,
        ratios,
        deliveries: samples.deliveries,
        deliveryCost: samples.deliveryCost,
        bareCost: samples.bareCost,
        costRatios: samples.costRatios,
      },
    }
  } finally {
    await bareAgent.close().catch(() => {})
    await gen.close()
    await served.close()
    await sim.close()
    await receiver.close()
  }
}

export const webhooks: Benchmark = {
  name: "webhooks",
  description:
    "webhook deliveries to a receiver process (answered 2xx and recorded): deliveries/s, and the whole process's CPU per delivery vs a bare undici POST of the same signed body to the same receiver, in the same run; signed GET /vaults slowdown beside them",
  budget: ratioAtMost(1.5),
  run: async (options) => {
    const r = await benchWebhooks({ quick: options.quick, log: options.log })
    const rounds = `${r.samples.ratios.length} interleaved rounds`
    const measurements: ReadonlyArray<Measurement> = [
      {
        label: "deliveries",
        subject: r.deliveriesPerSecond,
        unit: "deliveries/s",
        budget: absoluteAtLeast(2_000, "deliveries/s"),
        note: `median of ${rounds}, counted while reads were measured (slowest round ${fmt(Math.min(...r.samples.deliveries))}/s); CPU per delivery then, reads' share taken out: API thread ${fmt(r.mainThreadMicrosPerDelivery)} µs, whole process ${fmt(r.processMicrosPerDelivery)} µs`,
        samples: { subject: r.samples.deliveries },
        details: { mainThreadMicrosPerDelivery: r.mainThreadMicrosPerDelivery, processMicrosPerDelivery: r.processMicrosPerDelivery },
      },
      {
        label: "cpu-per-delivery",
        subject: r.deliveryMicrosAlone,
        baseline: r.bareMicrosPerPost,
        ratio: median(r.samples.costRatios),
        unit: "µs CPU",
        note:
          `whole process per delivery (deliveries alone) vs per bare undici POST of the same body (${fmt(r.barePerSecond)}/s), median of ${rounds}' ratios; ` +
          `signed GET /vaults ${fmt(r.readsPerSecondAlone)}/s alone, ${fmt(r.readsPerSecondWithDeliveries)}/s with deliveries: slowdown ${(r.readSlowdown * 100).toFixed(1)}% (reported, no budget)`,
        samples: { subject: r.samples.deliveryCost, baseline: r.samples.bareCost, ratios: r.samples.costRatios },
        details: {
          readSlowdown: r.readSlowdown,
          readsPerSecondAlone: r.readsPerSecondAlone,
          readsPerSecondWithDeliveries: r.readsPerSecondWithDeliveries,
          barePerSecond: r.barePerSecond,
        },
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
      `${fmt(r.readsPerSecondWithDeliveries)}/s with deliveries: slowdown ${(r.readSlowdown * 100).toFixed(1)}% (reported, no budget); ` +
      `CPU per delivery: API thread ${fmt(r.mainThreadMicrosPerDelivery)} µs, whole process ${fmt(r.processMicrosPerDelivery)} µs; ` +
      `deliveries alone ${fmt(r.deliveryMicrosAlone)} µs vs bare undici POST ${fmt(r.bareMicrosPerPost)} µs (budget ≤ 1.5×)`,
  )
}
