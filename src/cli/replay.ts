// `custody-sim replay <file> [--data-dir dir | --store memory] [--secrets file]`: load a scenario file into a fresh
// store, rebuild every read model and print the digest, and the secrets filled in for an export that left them out.
import { createReadStream, existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { digestOf } from "../api/digest/digest.js"
import { openStore, type OpenedStore } from "../adapters/stores.js"
import { LogRejected } from "../event-log/format.js"
import { appendChecked, checkLog, type CheckedLog, type LoadResult } from "../event-log/replay.js"
import { openReplayed } from "../simulator.js"
import { SuppliedSecrets } from "../event-log/redaction.js"
import { Result, Schema } from "effect"
import type { Simulator } from "../simulator.js"
import { makeProgress } from "./common.js"
import { CliFailure, UsageError } from "./failure.js"
import { shownDigest } from "../audit/digest-format.js"

export const fileLines = (file: string): AsyncIterable<string> =>
  createInterface({ input: file === "-" ? process.stdin : createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity })

/**
 * Loads `file` into a fresh store and opens a simulator over it; the caller closes it. The whole file is read and
 * checked before the store is opened, so a bad line (the file and line named, exit 1) creates and writes nothing.
 */
export const replayFile = async (
  file: string,
  target: { readonly dataDir?: string | undefined; readonly until?: bigint | undefined; readonly secrets?: SuppliedSecrets | undefined },
  label = "replay",
): Promise<{ sim: Simulator; loaded: LoadResult }> => {
  if (file !== "-" && !existsSync(file)) throw new UsageError(`no such file: ${file}`)
  const sqliteFile = target.dataDir === undefined ? undefined : join(target.dataDir, "events.sqlite")
  if (sqliteFile !== undefined && existsSync(sqliteFile))
    throw new UsageError(`${target.dataDir} already holds an event log; replay needs a fresh data directory`)
  const progress = makeProgress(label)
  let checked: CheckedLog
  try {
    checked = await checkLog(fileLines(file), {
      onChecked: (n) => progress.update(n),
      progressEvery: 10_000,
      ...(target.until !== undefined ? { until: target.until } : {}),
      ...(target.secrets !== undefined ? { secrets: target.secrets } : {}),
    })
  } catch (e) {
    progress.done()
    if (e instanceof LogRejected) throw new CliFailure(`${file}:${e.line}: ${e.reason}`)
    throw e
  }
  const store: OpenedStore = await openStore(
    target.dataDir === undefined ? { kind: "memory" } : { kind: "sqlite", dataDir: target.dataDir },
  )
  try {
    const loaded = await appendChecked(checked, store, (n) => progress.update(n, checked.events.length))
    progress.done()
    return { sim: await openReplayed(store, loaded.header.seed), loaded }
  } catch (e) {
    progress.done()
    await store.close?.()
    if (sqliteFile !== undefined) for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(sqliteFile + suffix, { force: true })
    throw e
  }
}

const decodeSecrets = Schema.decodeUnknownResult(SuppliedSecrets)

const readSecrets = (file: string): SuppliedSecrets => {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, "utf8"))
  } catch (e) {
    throw new UsageError(`--secrets ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not valid JSON"}`)
  }
  const r = decodeSecrets(json, { onExcessProperty: "error" })
  if (Result.isFailure(r)) throw new UsageError(`--secrets ${file}: ${r.failure.message.replace(/\n\s*/g, " ")}`)
  return r.success
}

export const run = async (
  file: string,
  o: { readonly dataDir?: string; readonly store?: string; readonly until?: string; readonly secrets?: string; readonly json?: boolean },
): Promise<number> => {
  if (o.store === "memory" && o.dataDir !== undefined) throw new UsageError("--store memory takes no --data-dir")
  if (o.store === "sqlite" && o.dataDir === undefined) throw new UsageError("--store sqlite needs --data-dir")
  if (o.until !== undefined && !/^(0|[1-9][0-9]{0,18})$/.test(o.until))
    throw new UsageError(`--until must be a position (a non-negative integer), not ${o.until}`)
  const until = o.until === undefined ? undefined : BigInt(o.until)
  const secrets = o.secrets === undefined ? undefined : readSecrets(o.secrets)
  const { sim, loaded } = await replayFile(file, { dataDir: o.dataDir, until, secrets })
  try {
    const digest = await digestOf(sim, undefined)
    const out = {
      events: loaded.events,
      position: Number(sim.models.position),
      seed: loaded.header.seed,
      store: sim.store.kind,
      digest: shownDigest(digest),
      filled: loaded.filled,
    }
    const text = [`events: ${out.events}`, `position: ${out.position}`, `store: ${out.store}`, `digest: ${out.digest}`]
    for (const k of loaded.filled.apiKeys) text.push(`api key: ${k.key}`, `api secret: ${k.secret}`, `api passphrase: ${k.passphrase}`)
    for (const w of loaded.filled.webhooks) text.push(`webhook ${w.webhookId} secret: ${w.secret}`)
    process.stdout.write(o.json === true ? `${JSON.stringify(out)}\n` : `${text.join("\n")}\n`)
    return 0
  } finally {
    await sim.close()
  }
}
