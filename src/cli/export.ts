// `custody-sim export [--data-dir dir | --store esdb --esdb url] [--seed text] [--out file] [--include-secrets]`: the log
// as JSON lines, without its secrets (and without the seed they derive from) unless --include-secrets.
import { createWriteStream } from "node:fs"
import { once } from "node:events"
import type { Writable } from "node:stream"
import { API_VERSIONS } from "../api/envelope.js"
import { exportLines } from "../event-log/export.js"
import type { EventStoreShape } from "../store/event-store.js"
import { Effect } from "effect"
import { LEGACY_SEED, readSeedFile, sharedStoreSeed } from "../workspace/seed.js"
import { openExisting } from "./common.js"

/** Writes the file to `out` in chunks, waiting when the stream asks; returns the number of events written. */
export const writeExport = async (
  store: EventStoreShape,
  header: { seed: string | null; apiVersion: string },
  out: Writable,
  options: { readonly includeSecrets: boolean },
): Promise<number> => {
  let chunk = ""
  let lines = 0
  for await (const line of exportLines(store, header, options)) {
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

export const run = async (o: {
  readonly dataDir: string
  readonly store?: string
  readonly esdb?: string
  readonly seed?: string
  readonly out?: string
  readonly includeSecrets?: boolean
}): Promise<number> => {
  const store = await openExisting({ store: o.store ?? "sqlite", dataDir: o.dataDir, esdb: o.esdb })
  try {
    const out = o.out === undefined ? process.stdout : createWriteStream(o.out)
    const includeSecrets = o.includeSecrets === true
    // Without --seed, the one serve kept with the log (a log written before seeds were random has the legacy one), and
    // only with the secrets: every generated secret and the admin token derive from it.
    const seed =
      o.seed ??
      (!includeSecrets
        ? null
        : o.store === "esdb"
          ? await Effect.runPromise(sharedStoreSeed(store))
          : (readSeedFile(o.dataDir) ?? LEGACY_SEED))
    const events = await writeExport(store, { seed, apiVersion: API_VERSIONS[0]! }, out, { includeSecrets })
    if (o.out !== undefined) {
      out.end()
      await once(out, "finish")
      process.stderr.write(`exported ${events} events to ${o.out}\n`)
    }
    return 0
  } finally {
    await store.close?.()
  }
}
