// `custody-sim replay <file> [--data-dir dir | --store memory]`: load a scenario file into a fresh store,
// rebuild every read model and print the digest.
import { createReadStream, existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { parseArgs } from "node:util"
import { digestOf } from "../audit/snapshot.js"
import { openStore, type OpenedStore } from "../runtime/stores.js"
import { LogRejected } from "../scenario/format.js"
import { loadLog, openReplayed, type LoadResult } from "../scenario/replay.js"
import type { Simulator } from "../simulator.js"
import { guard, makeProgress, UsageError } from "./common.js"

export const usage = `custody-sim replay <file|-> [--data-dir dir | --store memory] [--until position] [--json]
  Loads the scenario file into a fresh store (memory by default; with --data-dir, a new SQLite log there that
  custody-sim serve --data-dir can then serve), rebuilds every read model and prints the digest. --until loads
  only the events up to that recorded position (the file's "position" fields): the scenario forked there.
`

export const fileLines = (file: string): AsyncIterable<string> =>
  createInterface({ input: file === "-" ? process.stdin : createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity })

/** Loads `file` into a fresh store and opens a simulator over it; the caller closes it. Exits with the line on a bad file. */
export const replayFile = async (
  file: string,
  target: { readonly dataDir?: string | undefined; readonly until?: bigint | undefined },
  label = "replay",
): Promise<{ sim: Simulator; loaded: LoadResult }> => {
  if (file !== "-" && !existsSync(file)) throw new UsageError(`no such file: ${file}`)
  const sqliteFile = target.dataDir === undefined ? undefined : join(target.dataDir, "events.sqlite")
  if (sqliteFile !== undefined && existsSync(sqliteFile)) throw new UsageError(`${target.dataDir} already holds an event log; replay needs a fresh data directory`)
  const store: OpenedStore = await openStore(target.dataDir === undefined ? { kind: "memory" } : { kind: "sqlite", dataDir: target.dataDir })
  const progress = makeProgress(label)
  try {
    const loaded = await loadLog(fileLines(file), store, { onAppended: (n) => progress.update(n), ...(target.until !== undefined ? { until: target.until } : {}) })
    progress.done()
    return { sim: await openReplayed(store, loaded.header.seed), loaded }
  } catch (e) {
    progress.done()
    await store.close?.()
    if (sqliteFile !== undefined) for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(sqliteFile + suffix, { force: true })
    if (e instanceof LogRejected) throw new Error(`${file}:${e.line}: ${e.reason}`)
    throw e
  }
}

export const run = (argv: ReadonlyArray<string>): Promise<void> =>
  guard(usage, async () => {
    let parsed
    try {
      parsed = parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: { "data-dir": { type: "string" }, store: { type: "string" }, until: { type: "string" }, json: { type: "boolean", default: false } },
      })
    } catch (e) {
      throw new UsageError(e instanceof Error ? e.message : String(e))
    }
    const { values, positionals } = parsed
    if (positionals.length !== 1) throw new UsageError("replay needs exactly one file")
    if (values.store !== undefined && values.store !== "memory" && values.store !== "sqlite") throw new UsageError(`--store must be memory or sqlite, not ${values.store}`)
    if (values.store === "memory" && values["data-dir"] !== undefined) throw new UsageError("--store memory takes no --data-dir")
    if (values.store === "sqlite" && values["data-dir"] === undefined) throw new UsageError("--store sqlite needs --data-dir")
    if (values.until !== undefined && !/^(0|[1-9][0-9]{0,18})$/.test(values.until)) throw new UsageError(`--until must be a position (a non-negative integer), not ${values.until}`)
    const until = values.until === undefined ? undefined : BigInt(values.until)
    const { sim, loaded } = await replayFile(positionals[0]!, { dataDir: values["data-dir"], until })
    try {
      const digest = await digestOf(sim, undefined)
      const out = { events: loaded.events, position: Number(sim.models.position), seed: loaded.header.seed, store: sim.store.kind, digest: `sha256:${digest}` }
      process.stdout.write(values.json ? `${JSON.stringify(out)}\n` : `events: ${out.events}\nposition: ${out.position}\nstore: ${out.store}\ndigest: ${out.digest}\n`)
      return 0
    } finally {
      await sim.close()
    }
  })
