// The checkpoint writer's thread: a second copy of the read models, folded from the events the simulator hands
// over, encoded and written here, so that the API's event loop never stops for a checkpoint (encoding a million
// events' models takes seconds). Messages are handled in order, so a truncation is answered only after every
// write started before it has finished.
import { readlinkSync } from "node:fs"
import { setPriority } from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import { ReadModels } from "../projections/read-models.js"
import type { RecordedEvent } from "../store/event-store.js"
import { eventDigest, readCheckpointFile, writeCheckpointFile } from "./file.js"
import { checkpointFile, dropCheckpointsAfter, pruneCheckpoints } from "./directory.js"

export interface ThreadConfig {
  readonly dir: string
  readonly code: string
  /** Write a checkpoint once this many events were folded since the last one. */
  readonly every: number
  readonly keep: number
  /** A checkpoint the simulator chose at start: the copy starts from it. */
  readonly load: string | undefined
}

export type ToThread =
  | { readonly type: "events"; readonly events: ReadonlyArray<RecordedEvent> }
  | { readonly type: "save"; readonly id: number }
  | { readonly type: "truncate"; readonly id: number; readonly position: bigint }

export type FromThread =
  | { readonly type: "ready"; readonly position: bigint }
  | { readonly type: "saved"; readonly id: number; readonly position: bigint | null; readonly bytes: number; readonly ms: number }
  | { readonly type: "truncated"; readonly id: number; readonly stale: boolean }
  | { readonly type: "failed"; readonly reason: string }

const config = (workerData as { checkpointThread: ThreadConfig }).checkpointThread

// On Linux this thread yields the CPU to the API's thread: with few cores, folding and encoding here would
// otherwise take turns with requests (a thread's id is its own scheduling entity there). Elsewhere, or when the
// system refuses, it runs at the process's priority.
const THREAD_NICE = 10
try {
  const tid = Number(/task\/(\d+)$/.exec(readlinkSync("/proc/thread-self"))?.[1])
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, THREAD_NICE)
} catch {
  // Not Linux, or not allowed: the default priority.
}
const port = parentPort!
const send = (m: FromThread) => port.postMessage(m)

let models = new ReadModels()
let saved = -1n
let folded = 0
/** The last event folded: its digest ties a checkpoint to the log. */
let last: RecordedEvent | undefined
let failed: string | undefined

if (config.load !== undefined) {
  const { header, encoded } = readCheckpointFile(config.load)
  models = ReadModels.decode(encoded)
  saved = BigInt(header.position)
}
send({ type: "ready", position: models.position })

const save = (): { position: bigint | null; bytes: number; ms: number } => {
  if (failed !== undefined || last === undefined || models.position <= saved) return { position: null, bytes: 0, ms: 0 }
  const t0 = performance.now()
  const position = models.position
  const bytes = writeCheckpointFile(
    checkpointFile(config.dir, position),
    { code: config.code, position: String(position), event: eventDigest(last), count: models.timeline.count },
    models.encode(),
  )
  saved = position
  folded = 0
  pruneCheckpoints(config.dir, position, config.keep)
  return { position, bytes, ms: performance.now() - t0 }
}

port.on("message", (m: ToThread) => {
  switch (m.type) {
    case "events": {
      if (failed !== undefined) return
      try {
        for (const e of m.events) {
          if (e.position <= models.position) continue
          models.apply(e)
          last = e
          folded++
        }
        if (folded >= config.every) save()
      } catch (e) {
        failed = e instanceof Error ? e.message : String(e)
        send({ type: "failed", reason: failed })
      }
      return
    }
    case "save": {
      try {
        send({ type: "saved", id: m.id, ...save() })
      } catch (e) {
        send({ type: "failed", reason: e instanceof Error ? e.message : String(e) })
        send({ type: "saved", id: m.id, position: null, bytes: 0, ms: 0 })
      }
      return
    }
    case "truncate": {
      dropCheckpointsAfter(config.dir, m.position)
      send({ type: "truncated", id: m.id, stale: models.position > m.position })
      return
    }
  }
})
