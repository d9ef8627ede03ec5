// `custody-sim replay <file> [--data-dir dir | --store memory]`: load a scenario file into a fresh store,
// rebuild every read model and print the digest.
import { createReadStream, existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { digestOf } from "../api/digest/digest.js"
import { openStore, type OpenedStore } from "../adapters/stores.js"
import { LogRejected } from "../event-log/format.js"
import { loadLog, openReplayed, type LoadResult } from "../event-log/replay.js"
import type { Simulator } from "../simulator.js"
import { makeProgress } from "./common.js"
import { CliFailure, UsageError } from "./failure.js"
import { shownDigest } from "../audit/digest-format.js"

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
    if (e instanceof LogRejected) throw new CliFailure(`${file}:${e.line}: ${e.reason}`)
    throw e
  }
}

export const run = async (file: string, o: { readonly dataDir?: string; readonly store?: string; readonly until?: string; readonly json?: boolean }): Promise<number> => {
  if (o.store === "memory" && o.dataDir !== undefined) throw new UsageError("--store memory takes no --data-dir")
  if (o.store === "sqlite" && o.dataDir === undefined) throw new UsageError("--store sqlite needs --data-dir")
  if (o.until !== undefined && !/^(0|[1-9][0-9]{0,18})$/.test(o.until)) throw new UsageError(`--until must be a position (a non-negative integer), not ${o.until}`)
  const until = o.until === undefined ? undefined : BigInt(o.until)
  const { sim, loaded } = await replayFile(file, { dataDir: o.dataDir, until })
  try {
    const digest = await digestOf(sim, undefined)
    const out = { events: loaded.events, position: Number(sim.models.position), seed: loaded.header.seed, store: sim.store.kind, digest: shownDigest(digest) }
    process.stdout.write(o.json === true ? `${JSON.stringify(out)}\n` : `events: ${out.events}\nposition: ${out.position}\nstore: ${out.store}\ndigest: ${out.digest}\n`)
    return 0
  } finally {
    await sim.close()
  }
}
