// Handing the log to the checkpoint thread: a page of events per turn of the event loop, each page sized to hold
// the loop about TURN_MS, with the times the handovers took.
import type { Worker } from "node:worker_threads"
import { Effect } from "effect"
import type { EventStoreShape, RecordedEvent } from "../store/event-store.js"
import type { ToThread } from "./writer-thread.js"

/**
 * Events handed over per turn of the event loop: reading a page from the log and posting it (a structured clone)
 * holds the loop, so a page is sized to take about TURN_MS — halved when one took longer, doubled when one took
 * far less — between MIN_PAGE and MAX_PAGE events.
 */
const TURN_MS = 2
const MIN_PAGE = 16
const MAX_PAGE = 1_000
const KEPT = 4_096

export interface HandoverStats {
  /** Pages that handed events over (a look at a log with nothing new is not counted). */
  readonly pages: number
  readonly events: number
  /** Over the last 4,096 pages, in milliseconds. */
  readonly p50Ms: number
  readonly p99Ms: number
  /** Over every page. */
  readonly maxMs: number
}

/** The size of the next page, and how long the last KEPT handovers took. */
export class Pages {
  size = 256
  private readonly took = new Float64Array(KEPT)
  private pages = 0
  private events = 0
  private maxMs = 0

  /** A page read and posted in `ms`: `fresh` events handed over, `filled` when the log gave all the page asked. */
  record(ms: number, fresh: number, filled: boolean): void {
    if (fresh > 0) {
      this.took[this.pages++ % KEPT] = ms
      this.events += fresh
      if (ms > this.maxMs) this.maxMs = ms
    }
    if (ms > TURN_MS) this.size = Math.max(MIN_PAGE, this.size >>> 1)
    else if (ms < TURN_MS / 4 && filled) this.size = Math.min(MAX_PAGE, this.size * 2)
  }

  stats(): HandoverStats {
    const last = Array.from(this.took.subarray(0, Math.min(this.pages, KEPT))).sort((a, b) => a - b)
    const at = (q: number) => (last.length === 0 ? 0 : last[Math.min(last.length - 1, Math.floor(q * last.length))]!)
    return { pages: this.pages, events: this.events, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: this.maxMs }
  }
}

/**
 * Posts `to` the next page of the log after position `after` (-1n: from the start): the position of the last event
 * posted (`after` when none was new), and whether the log may hold more.
 */
export const handOverPage = async (
  store: EventStoreShape,
  to: Worker,
  after: bigint,
  pages: Pages,
): Promise<{ readonly sent: bigint; readonly more: boolean }> => {
  const asked = pages.size
  const t0 = performance.now()
  const page: ReadonlyArray<RecordedEvent> = await Effect.runPromise(
    store.readAll(after < 0n ? { maxCount: asked } : { fromPosition: after, maxCount: asked + 1 }),
  )
  const fresh = page.filter((e) => e.position > after)
  if (fresh.length > 0) to.postMessage({ type: "events", events: fresh } satisfies ToThread)
  pages.record(performance.now() - t0, fresh.length, page.length >= asked)
  return { sent: fresh.length > 0 ? fresh[fresh.length - 1]!.position : after, more: page.length >= (after < 0n ? asked : asked + 1) }
}
