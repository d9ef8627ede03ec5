// Loaded into the fuzz campaign's server (`node --expose-gc --import tsx --import ./scripts/fuzz-memory.ts …`).
// Every FUZZ_MEMORY_EVERY_MS milliseconds (default 5,000) it prints one line `fuzz-memory {json}` on stdout with
// the process's memory measured the same way each time:
// - `running`: as the server runs, garbage included;
// - `collected`: right after a full garbage collection (and a short wait for V8 to hand the freed pages back),
//   which is what the server holds. Without --expose-gc there is no `collected`.
// The heap figures are the main thread's; RSS is the whole process (its worker threads included).
import { getHeapSpaceStatistics } from "node:v8"

const every = Number(process.env.FUZZ_MEMORY_EVERY_MS ?? "5000")
const MiB = 2 ** 20

export interface MemoryFigures {
  readonly rss: number
  /** Committed size of the young generation (both semi-spaces and its large objects). */
  readonly young: number
  /** Committed size of the rest of the heap (old objects, code, large objects). */
  readonly old: number
  /** Live and not yet collected objects in that rest of the heap. */
  readonly oldUsed: number
  /** Outside the heap: array buffers and what native code reports to V8. */
  readonly external: number
}

export interface MemorySample {
  readonly running: MemoryFigures
  readonly collected?: MemoryFigures & { readonly gcMs: number }
}

const figures = (): MemoryFigures => {
  let young = 0
  let old = 0
  let oldUsed = 0
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_name === "new_space" || s.space_name === "new_large_object_space") young += s.space_size
    else {
      old += s.space_size
      oldUsed += s.space_used_size
    }
  }
  const m = process.memoryUsage()
  return { rss: m.rss / MiB, young: young / MiB, old: old / MiB, oldUsed: oldUsed / MiB, external: m.external / MiB }
}

const gc = (globalThis as { gc?: () => void }).gc
const print = (sample: MemorySample) => process.stdout.write(`fuzz-memory ${JSON.stringify(sample)}\n`)

const timer = setInterval(() => {
  const running = figures()
  if (gc === undefined) return print({ running })
  const t0 = performance.now()
  gc()
  const gcMs = performance.now() - t0
  // V8 unmaps the pages a collection freed on a background thread: RSS shows it a moment later.
  setTimeout(() => print({ running, collected: { ...figures(), gcMs } }), 200).unref()
}, every)
timer.unref()
