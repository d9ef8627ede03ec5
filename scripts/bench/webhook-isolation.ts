// A healthy subscriber's delivery latency beside a subscription whose receiver hangs with 1,000 deliveries queued,
// against the same subscriber alone, in interleaved rounds of one run. Budget (issue #20): p99 ≤ 2× alone.
// Run: npm run bench -- webhook-isolation, or npx tsx scripts/bench/webhook-isolation.ts [--quick]
// Latency: from just before the notification is appended to its arrival at the healthy receiver (both clocks are
// this process's). Notifications are raised one at a time at a steady pace, as a ledger raises them.
import http from "node:http"
import net from "node:net"
import { pathToFileURL } from "node:url"
import { Effect, Exit } from "effect"
import { createApp } from "../../src/api/app.js"
import { toNewEvents } from "../../src/commands/run-decider.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { EventStore } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { benchFixture } from "./lib/simulator.js"
import { fmt, median, quantile, sleep } from "./lib/stats.js"
import { ratioAtMost, type Benchmark } from "./lib/types.js"

const QUEUED = 1_000

/** Answers verifications, then holds every delivery's connection open without a word. */
const startHangingReceiver = async () => {
  const sockets = new Set<net.Socket>()
  let held = 0
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
    socket.on("error", () => {})
    let buf = ""
    socket.on("data", (d: Buffer) => {
      buf += d.toString("latin1")
      const i = buf.indexOf("\r\n\r\n")
      if (i < 0) return
      const length = Number(/content-length: *(\d+)/i.exec(buf.slice(0, i))?.[1] ?? 0)
      if (buf.length < i + 4 + length) return
      const body = buf.slice(i + 4, i + 4 + length)
      buf = buf.slice(i + 4 + length)
      if (body.startsWith('{"type":"verification"'))
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
      else held++
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/hang`,
    held: () => held,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy()
        server.close(() => done())
      }),
  }
}

/** Answers 200 at once and notes when each notification (by transaction id) arrived. */
const startHealthyReceiver = async () => {
  const arrived = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const at = performance.now()
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        type?: string
        challenge?: string
        data?: { item?: { transactionId?: string } }
      }
      if (body.type === "verification") return void res.writeHead(200).end(JSON.stringify({ challenge: body.challenge }))
      const id = body.data?.item?.transactionId
      if (id !== undefined && !arrived.has(id)) arrived.set(id, at)
      res.writeHead(200, { "content-length": "0" }).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/ok`,
    arrived,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}

let serial = 0
/** Appends `n` notifications in one append; returns their transaction ids and the time just before. */
const raise = async (sim: Simulator, vaultId: string, n: number) => {
  const ids = Array.from({ length: n }, () => `0x${(serial++).toString(16).padStart(64, "0")}`)
  const t = performance.now()
  const exit = await sim.run(
    Effect.gen(function* () {
      const at = sim.clock.now()
      const events = yield* toNewEvents(
        ids.map((txid) => ({
          type: "NotificationRaised",
          data: {
            vaultId,
            kind: "INCOMING_CONFIRMED_COIN_TX",
            subject: txid,
            payload: { transactionId: txid, amount: "1", unit: "ETH" },
            at,
          },
        })),
      )
      const r = yield* (yield* EventStore).append(`benchNotifications-${sim.ids.next("transaction")}`, events, "no_stream")
      yield* sim.runner.awaitPosition(r.position)
    }),
  )
  if (Exit.isFailure(exit)) throw new Error(`raising notifications failed: ${String(exit.cause)}`)
  return { ids, t }
}

const subscribe = async (sim: Simulator, url: string) => {
  const res = await createApp(sim, { log: { error: () => {}, info: () => {} } }).request("/_sim/webhooks", {
    method: "POST",
    headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ url, secret: "bench-isolation", events: ["*"] }),
  })
  const body = (await res.json()) as { status?: string }
  if (body.status !== "active") throw new Error(`subscription not verified: ${JSON.stringify(body)}`)
}

/** Latencies (ms) of `count` notifications raised one at a time every `everyMs`, to the healthy receiver. */
const measure = async (hanging: boolean, count: number, everyMs: number): Promise<Array<number>> => {
  const healthy = await startHealthyReceiver()
  const hang = await startHangingReceiver()
  const sim = await createSimulator({ store: makeMemoryStore(), fixture: benchFixture })
  try {
    const vaultId = sim.models.workspace.vaultList(undefined)[0]!.profile.vaultId
    await subscribe(sim, healthy.url)
    if (hanging) {
      await subscribe(sim, hang.url)
      const backlog = await raise(sim, vaultId, QUEUED)
      // The healthy subscriber has had these; the hanging one holds its slots and has the rest queued.
      while (backlog.ids.some((id) => !healthy.arrived.has(id))) await sleep(10)
      while (hang.held() === 0) await sleep(10)
    }
    const sent: Array<{ id: string; t: number }> = []
    for (let i = 0; i < count; i++) {
      const { ids, t } = await raise(sim, vaultId, 1)
      sent.push({ id: ids[0]!, t })
      await sleep(everyMs)
    }
    const deadline = performance.now() + 60_000
    while (sent.some((s) => !healthy.arrived.has(s.id)) && performance.now() < deadline) await sleep(10)
    return sent.map((s) => (healthy.arrived.get(s.id) ?? Number.POSITIVE_INFINITY) - s.t)
  } finally {
    await sim.close()
    await hang.close()
    await healthy.close()
  }
}

export interface IsolationResult {
  readonly aloneP99: number
  readonly besideP99: number
  readonly ratio: number
  readonly samples: {
    readonly alone: ReadonlyArray<number>
    readonly beside: ReadonlyArray<number>
    readonly ratios: ReadonlyArray<number>
  }
  readonly medians: { readonly alone: number; readonly beside: number }
}

export const benchWebhookIsolation = async (options: { quick?: boolean; log?: (line: string) => void } = {}): Promise<IsolationResult> => {
  const log = options.log ?? ((line: string) => console.error(line))
  const rounds = options.quick ? 1 : 5
  const count = options.quick ? 100 : 300
  const everyMs = 5
  const alone: Array<number> = []
  const beside: Array<number> = []
  const ratios: Array<number> = []
  const medAlone: Array<number> = []
  const medBeside: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false]
    const got = new Map<boolean, Array<number>>()
    for (const hanging of order) got.set(hanging, await measure(hanging, count, everyMs))
    const a = got.get(false)!
    const b = got.get(true)!
    const [pa, pb] = [quantile(a, 0.99), quantile(b, 0.99)]
    alone.push(pa)
    beside.push(pb)
    ratios.push(pb / pa)
    medAlone.push(median(a))
    medBeside.push(median(b))
    log(
      `  round ${round + 1}/${rounds}: p99 ${fmt(pa)} ms alone, ${fmt(pb)} ms beside ${QUEUED} queued for a hanging receiver (ratio ${(pb / pa).toFixed(2)}); medians ${fmt(median(a))} / ${fmt(median(b))} ms`,
    )
  }
  return {
    aloneP99: median(alone),
    besideP99: median(beside),
    ratio: median(ratios),
    samples: { alone, beside, ratios },
    medians: { alone: median(medAlone), beside: median(medBeside) },
  }
}

export const webhookIsolation: Benchmark = {
  name: "webhook-isolation",
  description: `a healthy subscriber's delivery p99 beside a subscription with ${QUEUED} deliveries queued for a hanging receiver, vs the subscriber alone, same run`,
  budget: ratioAtMost(2),
  run: async (options) => {
    const r = await benchWebhookIsolation({ quick: options.quick, log: options.log })
    return {
      subject: r.besideP99,
      baseline: r.aloneP99,
      ratio: r.ratio,
      unit: "ms (p99)",
      note: `median of ${r.samples.ratios.length} interleaved rounds' p99 ratios; median latency ${fmt(r.medians.alone)} ms alone, ${fmt(r.medians.beside)} ms beside`,
      samples: { subject: r.samples.beside, baseline: r.samples.alone, ratios: r.samples.ratios },
    }
  },
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const r = await benchWebhookIsolation({ quick: process.argv.includes("--quick") })
  console.log(JSON.stringify(r, null, 2))
}
