// Shared by the export, replay and audit commands: opening an existing store, progress on a terminal.
import { existsSync } from "node:fs"
import { join } from "node:path"
import { openStore, type OpenedStore } from "../adapters/stores.js"
import { CliFailure, UsageError } from "./failure.js"

/** Opens the log a command reads: the SQLite file of a data directory (which must exist) or an EventStoreDB. */
export const openExisting = async (o: {
  readonly store: string
  readonly dataDir: string
  readonly esdb?: string | undefined
}): Promise<OpenedStore> => {
  if (o.store === "esdb") {
    if (o.esdb === undefined) throw new UsageError("--store esdb needs --esdb <connection string>")
    return openStore({ kind: "esdb", esdb: o.esdb })
  }
  if (o.store !== "sqlite") throw new UsageError(`--store must be sqlite or esdb here, not ${o.store}`)
  if (!existsSync(join(o.dataDir, "events.sqlite")))
    throw new UsageError(`no event log in ${o.dataDir} (expected ${join(o.dataDir, "events.sqlite")})`)
  try {
    return await openStore({ kind: "sqlite", dataDir: o.dataDir })
  } catch (e) {
    throw new CliFailure(
      `cannot open ${o.dataDir}: ${e instanceof Error ? e.message : String(e)} (a running simulator holds it: use its /_sim routes instead)`,
    )
  }
}

/** A progress line on stderr, redrawn at most every 200 ms, only when stderr is a terminal. */
export const makeProgress = (label: string) => {
  const tty = process.stderr.isTTY === true
  let last = 0
  return {
    update: (done: number, total?: number) => {
      if (!tty) return
      const now = performance.now()
      if (now - last < 200) return
      last = now
      const pct = total !== undefined && total > 0 ? ` (${Math.min(100, Math.floor((done / total) * 100))}%)` : ""
      process.stderr.write(`\r${label}: ${done.toLocaleString("en-US")} events${pct}   `)
    },
    done: () => {
      if (tty && last > 0) process.stderr.write("\r\x1b[K")
    },
  }
}
