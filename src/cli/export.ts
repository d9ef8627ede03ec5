// `custody-sim export [--data-dir dir | --store esdb --esdb url] [--seed text] [--out file]`: the log as JSON lines.
import { createWriteStream } from "node:fs"
import { once } from "node:events"
import type { Writable } from "node:stream"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { API_VERSIONS } from "../api/envelope.js"
import { exportLines } from "../scenario/export.js"
import type { EventStoreShape } from "../store/event-store.js"
import { LEGACY_SEED, readSeedFile, sharedStoreSeed } from "../runtime/seed.js"
import { guard, openExisting, UsageError } from "./common.js"

export const usage = `custody-sim export [--data-dir ./.custody-sim | --store esdb --esdb <connection string>] [--seed text] [--out file]
  Writes the event log as JSON lines (custody-sim/events@1) to stdout or --out. --seed names the workspace seed
  the log was recorded with (default: the one serve kept with the log); it goes into the header.
`

/** Writes the file to `out` in chunks, waiting when the stream asks; returns the number of events written. */
export const writeExport = async (store: EventStoreShape, header: { seed: string | null; apiVersion: string }, out: Writable): Promise<number> => {
  let chunk = ""
  let lines = 0
  for await (const line of exportLines(store, header)) {
    chunk += `${line}\n`
    lines++
    if (chunk.length >= 1 << 16) {
      if (!out.write(chunk)) await once(out, "drain")
      chunk = ""
    }
  }
  if (chunk.length > 0 && !out.write(chunk)) await once(out, "drain")
  return lines - 1
}

const parse = (argv: ReadonlyArray<string>) => {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        "data-dir": { type: "string", default: ".custody-sim" },
        store: { type: "string", default: "sqlite" },
        esdb: { type: "string" },
        seed: { type: "string" },
        out: { type: "string" },
      },
    }).values
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e))
  }
}

export const run = (argv: ReadonlyArray<string>): Promise<void> =>
  guard(usage, async () => {
    const o = parse(argv)
    const store = await openExisting({ store: o.store, dataDir: o["data-dir"], esdb: o.esdb })
    try {
      const out = o.out === undefined ? process.stdout : createWriteStream(o.out)
      const seed = o.seed ?? (o.store === "esdb" ? await Effect.runPromise(sharedStoreSeed(store)) : (readSeedFile(o["data-dir"]) ?? LEGACY_SEED))
      const events = await writeExport(store, { seed, apiVersion: API_VERSIONS[0]! }, out)
      if (o.out !== undefined) {
        out.end()
        await once(out, "finish")
        process.stderr.write(`exported ${events} events to ${o.out}\n`)
      }
      return 0
    } finally {
      await store.close?.()
    }
  })
