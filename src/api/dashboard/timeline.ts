// GET /_sim/timeline: what the dashboard's timeline draws — the log's extent, simulated time along it (and whether
// the clock is frozen), and where blocks were mined; GET /_sim/timeline/block: the block its label names as of a
// position; and GET /_sim/live: server-sent events carrying the log's head as the subscription moves.
import { Effect, Fiber, Stream } from "effect"
import { streamSSE } from "hono/streaming"
import { chainKey } from "../../chain-sim/index.js"
import type { AsOf } from "../../projections/projection.js"
import { parseAsOf } from "../as-of.js"
import type { ApiDeps } from "../deps.js"
import { isApiError } from "../errors.js"
import type { SimRoute } from "../sim/common.js"
import { blockMarks, markAt, type BlockMark } from "./block-marks.js"

const TICKS = 64
const BLOCK_MARKS = 240

/** What was drawn for one log head: the block marks (a function of the log alone) and the body at one clock reading. */
interface Drawn {
  readonly position: bigint
  readonly marks: ReadonlyArray<BlockMark>
  body?: { readonly key: string; readonly value: unknown }
}
const cache = new WeakMap<ApiDeps, Drawn>()

const sample = <T>(xs: ReadonlyArray<T>, n: number): ReadonlyArray<T> => {
  if (xs.length <= n) return xs
  const out: Array<T> = []
  for (let i = 0; i < n; i++) out.push(xs[Math.round((i * (xs.length - 1)) / (n - 1))]!)
  return out
}

/** The marks of the log as it stands: computed once per head, whatever the clock does (a wall clock moves every call). */
const drawn = (deps: ApiDeps): Drawn => {
  const hit = cache.get(deps)
  if (hit !== undefined && hit.position === deps.sim.models.position) return hit
  const fresh: Drawn = { position: deps.sim.models.position, marks: blockMarks(deps) }
  cache.set(deps, fresh)
  return fresh
}

/** The timeline's body: the same log at the same simulated time, frozen or not, draws the same timeline. */
const timelineBody = (deps: ApiDeps): unknown => {
  const d = drawn(deps)
  const key = `${deps.sim.clock.now()}${deps.sim.clock.isFrozen() ? "f" : ""}`
  if (d.body?.key === key) return d.body.value
  const m = deps.sim.models
  const head = m.position
  const first = m.timeline.first
  const ticks: Array<{ position: number; time: number }> = []
  if (head >= 0n)
    for (let i = 0; i <= TICKS; i++) {
      const p = first + ((head - first) * BigInt(i)) / BigInt(TICKS)
      ticks.push({ position: Number(p), time: m.timeline.timeAt(p) ?? 0 })
    }
  const value = {
    first: Number(first),
    head: Number(head),
    headTime: m.timeline.headTime,
    now: deps.sim.clock.now(),
    frozen: deps.sim.clock.isFrozen(),
    ticks,
    blocks: sample(d.marks, BLOCK_MARKS),
    blockCount: d.marks.length,
  }
  d.body = { key, value }
  return value
}

/**
 * The block the timeline's label names at `asOf`: the last change of height at or before the position, which is
 * that chain's height there. Now: the same chain at its height now — an interval schedule moves on with the clock,
 * which writes no event, and then no position marks the block (`position` is absent).
 */
const blockAt = (deps: ApiDeps, asOf: AsOf) => {
  const marks = drawn(deps).marks
  const mark = asOf === undefined ? marks[marks.length - 1] : markAt(marks, Number(asOf))
  if (mark === undefined) return null
  if (asOf !== undefined) return mark
  const [blockchain, network] = mark.chain.split("/") as [string, string]
  const height = deps.sim.models.chains.heightAt(chainKey(blockchain, network), deps.sim.clock.now())
  return height === mark.height ? mark : { chain: mark.chain, height }
}

export const timelineRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/timeline",
    handle: (_, deps) => ({ status: 200, body: timelineBody(deps) }),
  },
  {
    method: "GET",
    path: "/_sim/timeline/block",
    handle: ({ query }, deps) => {
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      return isApiError(asOf) ? asOf : { status: 200, body: { block: blockAt(deps, asOf) } }
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
