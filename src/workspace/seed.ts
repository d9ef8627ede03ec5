// Where `serve` gets its workspace seed without --seed: random per install, then kept, so that every install has
// its own admin token and keys and a restart keeps them.
import { randomBytes, randomUUID } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import type { EventStoreShape, StoreUnavailable, WrongExpectedVersion } from "../store/event-store.js"

/** The seed every install had before seeds were random: a log written then keeps it (its ids come from it). */
export const LEGACY_SEED = "custody-sim"
export const SEED_FILE = "seed"
/** A `$`-stream, skipped by every reader of the simulation's log (see node-claim.ts). */
export const SEED_REGISTRY = "$custody-sim-seed"

export const randomSeed = (): string => randomBytes(24).toString("base64url")

const hasEvents = (store: EventStoreShape) => Effect.map(store.headPosition, (p) => p >= 0n)

/**
 * The data directory's seed file; written (0600) at the first start: with the seed given (`--seed`, a fixture's),
 * else a random one, or the legacy seed when events written before seed files exist already. A seed given to a
 * later start is used for it, and the file keeps the first: a restart without flags goes on with what the data
 * directory was created with.
 */
export const dataDirSeed = (dataDir: string, store: EventStoreShape, given?: string): Effect.Effect<string, StoreUnavailable> =>
  Effect.gen(function* () {
    const file = join(dataDir, SEED_FILE)
    const kept = readSeedFile(dataDir)
    if (kept !== undefined) return given ?? kept
    const seed = given ?? ((yield* hasEvents(store)) ? LEGACY_SEED : randomSeed())
    writeFileSync(file, `${seed}\n`, { mode: 0o600, flag: "wx" })
    return seed
  })

export const readSeedFile = (dataDir: string): string | undefined => {
  try {
    const seed = readFileSync(join(dataDir, SEED_FILE), "utf8").trim()
    return seed.length > 0 ? seed : undefined
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
}

/** A shared store (EventStoreDB): the first node to start writes the seed there; every other node reads it. */
export const sharedStoreSeed = (store: EventStoreShape): Effect.Effect<string, StoreUnavailable | WrongExpectedVersion> =>
  Effect.gen(function* () {
    const read = yield* store.readStream(SEED_REGISTRY)
    const recorded = (read.events[0]?.data as { readonly seed?: unknown } | undefined)?.seed
    if (typeof recorded === "string") return recorded
    const seed = (yield* hasEvents(store)) ? LEGACY_SEED : randomSeed()
    yield* store.append(
      SEED_REGISTRY,
      [{ id: randomUUID(), type: "WorkspaceSeedChosen", data: { seed }, metadata: { at: Date.now(), schemaVersion: 1 } }],
      "no_stream",
    )
    return seed
  }).pipe(Effect.retry({ times: 5, while: (e) => e._tag === "WrongExpectedVersion" }))
