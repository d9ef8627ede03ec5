// Opens the event store the options name: memory, sqlite (default, in a data directory) or esdb.
import { join } from "node:path"
import type { EventStoreShape } from "../store/event-store.js"
import { secureDataDir } from "./data-dir.js"

export type StoreKind = "memory" | "sqlite" | "esdb"

export interface StoreOptions {
  readonly kind: StoreKind
  readonly dataDir?: string
  readonly durability?: "normal" | "full"
  readonly esdb?: string
}

export type OpenedStore = EventStoreShape & { close?: () => void | Promise<void> }

export const openStore = async (o: StoreOptions): Promise<OpenedStore> => {
  switch (o.kind) {
    case "memory": {
      const { makeMemoryStore } = await import("../store/memory.js")
      return makeMemoryStore()
    }
    case "sqlite": {
      const dir = o.dataDir ?? ".custody-sim"
      secureDataDir(dir)
      const { makeSqliteStore } = await import("../store/sqlite.js")
      const store = makeSqliteStore({ file: join(dir, "events.sqlite"), durability: o.durability ?? "normal" })
      // SQLite creates the log (and its -wal and -shm beside it) with the umask's mode.
      secureDataDir(dir)
      return store
    }
    case "esdb": {
      if (o.esdb === undefined) throw new Error("--store esdb needs --esdb <connection string>")
      const { makeEsdbStore } = await import("../store/esdb.js")
      return makeEsdbStore(o.esdb)
    }
  }
}
