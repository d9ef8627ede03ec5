// GET /_sim/timeline: what the dashboard's timeline draws — the log's extent, simulated time along it, and where
// blocks were mined — and GET /_sim/live: server-sent events carrying the log's head as the subscription moves.
import { Effect, Fiber, Stream } from "effect"
import { streamSSE } from "hono/streaming"
import type { ApiDeps } from "../deps.js"
import type { SimRoute } from "../sim/common.js"

const TICKS = 64
const BLOCK_MARKS = 240

interface Marks {
  readonly position: bigint
  readonly body: unknown
}
const cache = new WeakMap<ApiDeps, Marks>()

const sample = <T>(xs: ReadonlyArray<T>, n: number): ReadonlyArray<T> => {
  if (xs.length <= n) return xs
  const out: Array<T> = []
  for (let i = 0; i < n; i++) out.push(xs[Math.round((i * (xs.length - 1)) / (n - 1))]!)
  return out
}

const timelineBody = (deps: ApiDeps) => {
  const m = deps.sim.models
  const head = m.position
  const first = m.timeline.first
  const ticks: Array<{ position: number; time: number }> = []
  if (head >= 0n) for (let i = 0; i <= TICKS; i++) {
    const p = first + ((head - first) * BigInt(i)) / BigInt(TICKS)
    ticks.push({ position: Number(p), time: m.timeline.timeAt(p) ?? 0 })
  }
  const blocks: Array<{ position: number; chain: string; height: number }> = []
  for (const c of m.chains.chains.values()) {
    let last = -1
    for (const [p, s] of c.state.entries()) {
      if (s.height !== last && last >= 0) blocks.push({ position: Number(p), chain: `${c.blockchain}/${c.network}`, height: s.height })
      last = s.height
    }
  }
  blocks.sort((a, b) => a.position - b.position)
  return { first: Number(first), head: Number(head), headTime: m.timeline.headTime, now: deps.sim.clock.now(), ticks, blocks: sample(blocks, BLOCK_MARKS), blockCount: blocks.length }
}

export const timelineRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/timeline",
    handle: (_, deps) => {
      const hit = cache.get(deps)
      if (hit !== undefined && hit.position === deps.sim.models.position) return { status: 200, body: hit.body }
      const body = timelineBody(deps)
      cache.set(deps, { position: deps.sim.models.position, body })
      return { status: 200, body }
    },
  },
  {
    method: "GET",
    path: "/_sim/live",
    handle: ({ c }, deps) => ({
      response: streamSSE(c, async (stream) => {
        // One message per batch of events (at most every 200 ms): a busy log must not flood the page.
        let pending: bigint | undefined
        let timer: ReturnType<typeof setTimeout> | undefined
        const flush = () => {
          timer = undefined
          if (pending === undefined) return
          const p = pending
          pending = undefined
          void stream.writeSSE({ event: "position", data: String(p) })
        }
        const fiber = Effect.runFork(
          deps.sim.store.subscribeAll({ afterPosition: deps.sim.models.position }).pipe(
            Stream.runForEach((e) =>
              Effect.sync(() => {
                pending = e.position
                timer ??= setTimeout(flush, 200)
              }),
            ),
            Effect.ignore,
          ),
        )
        await stream.writeSSE({ event: "position", data: String(deps.sim.models.position) })
        const keepAlive = setInterval(() => void stream.write(": keep-alive\n\n"), 15_000)
        await new Promise<void>((resolve) => stream.onAbort(resolve))
        clearInterval(keepAlive)
        if (timer !== undefined) clearTimeout(timer)
        await Effect.runPromise(Fiber.interrupt(fiber))
      }),
    }),
  },
]
