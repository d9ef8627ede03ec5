// Read-model checkpoints of a SQLite data directory: at start the newest valid one is loaded and only the log's
// tail is folded; while running, a thread keeps its own copy of the models (fed from the log, a page at a time)
// and writes a checkpoint every `every` events and at close. Before a revert cuts the log back, the files beyond
// the cut are removed (and a copy that is past it is replaced), so no checkpoint ever runs ahead of its log.
import { Worker } from "node:worker_threads"
import { Effect } from "effect"
import type { ReadModels } from "../projections/read-models.js"
import type { EventStoreShape } from "../store/event-store.js"
import { chooseCheckpoint, dropCheckpointsAfter, dropInterruptedWrites } from "./directory.js"
import type { FromThread, ThreadConfig, ToThread } from "./writer-thread.js"
import { handOverPage, Pages, type HandoverStats } from "./handover.js"
import { modelCodeFingerprint } from "./model-code.js"

export interface CheckpointOptions {
  /** The data directory (0700): checkpoints are `read-models.<position>.checkpoint` files in it (0600). */
  readonly dir: string
  /** Events between two checkpoints (default 10,000). */
  readonly every?: number
  /** Checkpoint files kept (default 2). */
  readonly keep?: number
  /** Write one at close when the log moved on since the last (default true). */
  readonly atClose?: boolean
  /** Told of checkpoints refused at start and of a writer that stopped (default: a line on stderr). */
  readonly log?: (line: string) => void
}

export interface LoadedCheckpoint {
  readonly file: string
  readonly position: bigint
}

/** Loads the newest valid checkpoint into `models` (which hold no event yet); undefined when none is usable. */
export const loadCheckpoint = async (
  options: CheckpointOptions,
  store: EventStoreShape,
  models: ReadModels,
): Promise<LoadedCheckpoint | undefined> => {
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`))
  const chosen = await chooseCheckpoint(options.dir, store, modelCodeFingerprint(), (file, reason) =>
    log(`checkpoint ${file} not used: ${reason}`),
  )
  if (chosen === undefined) return undefined
  try {
    models.load(chosen.encoded)
    if (String(models.position) !== chosen.header.position || models.timeline.count !== chosen.header.count)
      throw new Error("its models are not at its position")
    return { file: chosen.file, position: models.position }
  } catch (e) {
    models.clear()
    log(`checkpoint ${chosen.file} not used: ${e instanceof Error ? e.message : String(e)}; rebuilding from the log`)
    return undefined
  }
}

export interface Checkpointer {
  /** Stops handing events over (before the world is replaced). */
  readonly pause: () => Promise<void>
  /** The log is about to be cut back to `position`: files beyond it are removed first. */
  readonly beforeTruncate: (position: bigint) => Promise<void>
  /** Hands events over again; a copy that was past the cut starts over from the newest checkpoint left. */
  readonly resume: () => Promise<void>
  /** Writes a checkpoint of everything in the log now (if newer than the last); resolves with its position. */
  readonly save: () => Promise<bigint | null>
  /** Saves, then stops the thread. */
  readonly close: () => Promise<void>
  /** How long the event loop was held by each handover of a page of events to the thread (read and post). */
  readonly handovers: () => HandoverStats
}

const threadModule = new URL(import.meta.url.endsWith(".ts") ? "./writer-thread.ts" : "./writer-thread.js", import.meta.url)

const startThread = (config: ThreadConfig): Worker => {
  const workerData = { checkpointThread: config }
  if (!threadModule.href.endsWith(".ts")) return new Worker(threadModule, { workerData })
  // From sources (tsx, vitest), through tsx's loader.
  const code = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(threadModule.href)}, ${JSON.stringify(import.meta.url)}))`
  return new Worker(code, { eval: true, workerData })
}

/** The questions put to the thread (save, truncate), each answered once, by its id. */
class Answers {
  private nextId = 0
  private readonly waiting = new Map<number, (m: FromThread) => void>()

  /** Posts `to` the question `m` makes of its id; answered at once with the reason when the thread has `stopped`. */
  ask(to: Worker, stopped: string | undefined, m: (id: number) => ToThread): Promise<FromThread> {
    return new Promise((resolve) => {
      const id = ++this.nextId
      if (stopped !== undefined) return resolve({ type: "failed", reason: stopped })
      this.waiting.set(id, resolve)
      to.postMessage(m(id))
    })
  }

  answer(id: number, m: FromThread): void {
    this.waiting.get(id)?.(m)
    this.waiting.delete(id)
  }

  /** The thread is gone: every question still waiting is answered with its failure. */
  failAll(reason: string): void {
    for (const [, answer] of this.waiting) answer({ type: "failed", reason })
    this.waiting.clear()
  }
}

/** A writer thread started from `config`: its answers go to `answers`, its failures (a reason, or a crash) to `fail`. */
const startWriter = (config: ThreadConfig, answers: Answers, fail: (reason: string) => void): Worker => {
  const started = startThread(config)
  started.unref()
  started.on("message", (m: FromThread) => {
    if (m.type === "failed") fail(m.reason)
    else if (m.type === "saved" || m.type === "truncated") answers.answer(m.id, m)
  })
  started.on("error", (e) => {
    fail(e.message)
    answers.failAll(e.message)
  })
  return started
}

export const startCheckpointer = async (
  options: CheckpointOptions,
  store: EventStoreShape,
  loaded: LoadedCheckpoint | undefined,
): Promise<Checkpointer> => {
  const log = options.log ?? ((l: string) => process.stderr.write(`${l}\n`))
  const code = modelCodeFingerprint()
  const every = options.every ?? 10_000
  dropInterruptedWrites(options.dir)
  // Started once there is something to write (`every` events beyond the checkpoint loaded, or a save): a simulator
  // that only reads, or a short test, never pays for the thread and its copy of the models.
  let thread: Worker | undefined
  /** The checkpoint a thread started now would start from. */
  let from = loaded
  /** Position of the last event handed over (or, before the thread starts, of the checkpoint it starts from). */
  let sent = loaded?.position ?? -1n
  let stopped: string | undefined
  const answers = new Answers()
  let stale = false
  const fail = (reason: string) => {
    if (stopped === undefined) log(`checkpoints stopped: ${reason}`)
    stopped = reason
  }

  const open = (): Worker =>
    (thread = startWriter({ dir: options.dir, code, every, keep: options.keep ?? 2, load: from?.file }, answers, fail))
  const ask = (to: Worker, m: (id: number) => ToThread): Promise<FromThread> => answers.ask(to, stopped, m)
  const head = () => Effect.runPromise(store.headPosition)

  // Hands over what the log holds beyond `sent`, a page per turn of the event loop.
  let pumping: Promise<void> | undefined
  let paused = false
  const pages = new Pages()
  const pumpOnce = async (force: boolean): Promise<void> => {
    if (thread === undefined) {
      if (!force && (await head()) - sent < BigInt(every)) return
      open()
    }
    for (;;) {
      if (paused || stopped !== undefined) return
      const handed = await handOverPage(store, thread!, sent, pages)
      sent = handed.sent
      if (!handed.more) return
      await new Promise((r) => setImmediate(r))
    }
  }
  const pump = (force = false): Promise<void> => (pumping ??= pumpOnce(force).finally(() => (pumping = undefined)))
  const timer = setInterval(() => {
    void pump().catch((e: unknown) => log(`checkpoints: reading the log failed: ${e instanceof Error ? e.message : String(e)}`))
  }, 100)
  timer.unref()

  const save = async (): Promise<bigint | null> => {
    if (thread === undefined && (await head()) <= sent) return null
    await pumping
    await pump(true)
    const m = await ask(thread!, (id) => ({ type: "save", id }))
    return m.type === "saved" ? m.position : null
  }
  return {
    pause: async () => {
      paused = true
      await pumping
    },
    beforeTruncate: async (position) => {
      const m = thread === undefined ? undefined : await ask(thread, (id) => ({ type: "truncate", id, position }))
      // Without a thread (or with one that stopped) no write is under way: the files go from here.
      if (m?.type !== "truncated") dropCheckpointsAfter(options.dir, position)
      if (m?.type === "truncated" ? m.stale : sent > position) stale = true
    },
    resume: async () => {
      if (stale) {
        stale = false
        await thread?.terminate()
        thread = undefined
        stopped = undefined
        from = await loadCheckpointFile(options.dir, store, code, log)
        sent = from?.position ?? -1n
      }
      paused = false
    },
    save,
    handovers: () => pages.stats(),
    close: async () => {
      clearInterval(timer)
      if (options.atClose !== false) await save()
      await thread?.terminate()
    },
  }
}

/** The newest valid checkpoint left after a cut (the thread decodes it itself). */
const loadCheckpointFile = async (
  dir: string,
  store: EventStoreShape,
  code: string,
  log: (l: string) => void,
): Promise<LoadedCheckpoint | undefined> => {
  const chosen = await chooseCheckpoint(dir, store, code, (file, reason) => log(`checkpoint ${file} not used: ${reason}`))
  return chosen === undefined ? undefined : { file: chosen.file, position: BigInt(chosen.header.position) }
}
