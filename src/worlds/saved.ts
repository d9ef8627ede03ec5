// Where a server's worlds are kept (docs/worlds.md, "Stores"): in memory, each on a memory store of its own, gone
// with the process; or in files (adapters/world-files.ts), each world its own SQLite log with the record that
// reopens it at the next start, with its credentials: its admin token here, its API keys in its log.
import type { WorldFiles } from "../adapters/world-files.js"
import type { WorldCredentials } from "../api/sim/worlds.js"
import type { Fixture } from "../simulator.js"
import { createSimulator } from "../simulator.js"
import { makeMemoryStore } from "../store/memory.js"
import { placed, worldOf, type World, type WorldPlace, type WorldSettings } from "./world.js"

const FORMAT = "custody-sim/world@1"

/** What reopening a world needs besides its log. */
export interface WorldRecord {
  readonly id: string
  readonly seed: string
  readonly adminToken: string
  readonly created: string
  /** The fixture's own asset ids, which a start reads as it reads `serve --fixture`'s. */
  readonly assets?: Fixture["assets"]
  /** The credentials its creation answered (GET /_sim/worlds/{id} gives them again, after a restart too). */
  readonly apiKeys?: ReadonlyArray<WorldCredentials>
}

export interface WorldStorage {
  /** Where a new world keeps its log. */
  readonly place: (id: string) => WorldPlace
  /** The world's log holds its creation: from now on it outlives a restart. */
  readonly keep: (record: WorldRecord) => void
  /** Ends a world: closed (`close`) and its log removed; no restart brings it back. */
  readonly end: (id: string, close: () => Promise<void>) => Promise<void>
  /** The worlds kept by a previous start. */
  readonly saved: () => ReadonlyArray<{ readonly record: WorldRecord; readonly place: WorldPlace }>
  /** How many worlds were ever created (the next one's id is drawn from it). */
  readonly made: () => number
  readonly setMade: (n: number) => void
}

/** Worlds in memory: each its own memory store, none kept. */
export const memoryWorlds = (): WorldStorage => {
  let made = 0
  return {
    place: () => ({ store: makeMemoryStore() }),
    keep: () => {},
    end: (_id, close) => close(),
    saved: () => [],
    made: () => made,
    setMade: (n) => {
      made = n
    },
  }
}

const recordOf = (id: string, value: unknown): WorldRecord => {
  const r = value as Partial<Record<keyof WorldRecord | "format", unknown>> | null
  const fields = ["seed", "adminToken", "created"] as const
  if (typeof r !== "object" || r === null || r.format !== FORMAT || r.id !== id || fields.some((f) => typeof r[f] !== "string"))
    throw new Error(`world ${id}: its world.json is not a ${FORMAT} record of world ${id} (move its directory aside to start without it)`)
  if (r.assets !== undefined && !Array.isArray(r.assets)) throw new Error(`world ${id}: its world.json's assets are not a list`)
  if (r.apiKeys !== undefined && !Array.isArray(r.apiKeys)) throw new Error(`world ${id}: its world.json's apiKeys are not a list`)
  return r as unknown as WorldRecord
}

/** Worlds in files: each its own SQLite log and record, reopened at the next start. */
export const filedWorlds = (files: WorldFiles): WorldStorage => ({
  place: (id) => files.open(id),
  keep: (record) => files.keep(record.id, { format: FORMAT, ...record }),
  end: async (id, close) => {
    files.forget(id)
    await close()
    files.remove(id)
  },
  saved: () => files.saved().map(({ id, record }) => ({ record: recordOf(id, record), place: files.open(id) })),
  made: files.made,
  setMade: files.setMade,
})

/** A world kept by a previous start, reopened on its log: its keys are in it, its admin token and seed in its record. */
export const reopenedWorld = async (record: WorldRecord, place: WorldPlace, settings: WorldSettings): Promise<World> => {
  const sim = await createSimulator({
    // Its clock resumes where it stood (its directory's clock.json).
    ...placed(place, undefined),
    seed: record.seed,
    adminToken: record.adminToken,
    ...(record.assets !== undefined && record.assets.length > 0 ? { fixture: { assets: record.assets } } : {}),
    defaultWorkspace: false,
    webhooks: settings.webhooks,
  })
  return { ...worldOf(record.id, sim, settings), created: record.created }
}
