// One world: a full simulator (createSimulator) on a store of its own (memory, or a file: saved.ts), and the app
// that answers for it (its deps on the route table every world shares, createWorldApps).
import { Effect, Exit } from "effect"
import type { Fetch, WorldApps } from "../api/app.js"
import type { WorldCredentials } from "../api/sim/worlds.js"
import { createApiKey, revokeApiKey } from "../commands/workspace.js"
import { makeLoader } from "../event-log/load.js"
import { logPages } from "../event-log/pages.js"
import { createSimulator, type Fixture, type Simulator, type SimulatorOptions } from "../simulator.js"
import type { EventStoreShape } from "../store/event-store.js"
import { makeMemoryStore } from "../store/memory.js"
import { freshKey } from "./credentials.js"

export interface World {
  readonly id: string
  readonly sim: Simulator
  readonly fetch: Fetch
  readonly created: string
  readonly server: boolean
  /** Wall time of its last request, ms. */
  lastUsed: number
  /** A clock pass is running (the shared ticker starts one at a time per world). */
  ticking: boolean
}

export interface WorldSettings {
  /** Every world's app (createWorldApps, without the dashboard: it is the server world's). */
  readonly apps: WorldApps
  /** Simulated time of a new world: frozen at this UNIX ms, or following the wall clock. */
  readonly frozenAt: number | undefined
  readonly webhooks: SimulatorOptions["webhooks"]
  readonly wallNow: () => number
}

/** Where a world keeps its log, and (with `dir`) its clock and fault counters: a memory store of its own by default. */
export interface WorldPlace {
  readonly store: EventStoreShape & { close?: () => void | Promise<void> }
  readonly dir?: string
}

const inMemory = (): WorldPlace => ({ store: makeMemoryStore() })

/** The simulator options a world's place gives: its store, and its clock and fault counters kept in its directory. */
export const placed = (place: WorldPlace, frozenAt: number | undefined) => ({
  store: place.store,
  clock: { ...(frozenAt !== undefined ? { frozenAt } : {}), ...(place.dir !== undefined ? { dataDir: place.dir } : {}) },
  ...(place.dir !== undefined ? { faultCallsDir: place.dir } : {}),
})

export const worldOf = (id: string, sim: Simulator, settings: WorldSettings): World => ({
  id,
  sim,
  fetch: settings.apps.serve(sim),
  created: new Date().toISOString(),
  server: false,
  lastUsed: settings.wallNow(),
  ticking: false,
})

/** A world created from a fixture whose credentials are all given (credentials.ts). */
export const worldFromFixture = async (
  id: string,
  fixture: Fixture & { readonly adminToken: string },
  seed: string,
  settings: WorldSettings,
  place: WorldPlace = inMemory(),
): Promise<World> => {
  const sim = await createSimulator({
    ...placed(place, settings.frozenAt),
    seed,
    fixture: { ...fixture, seed },
    webhooks: settings.webhooks,
  })
  return worldOf(id, sim, settings)
}

/** The source's log up to `position` (all of it when undefined), copied into a new store. */
const copiedLog = async (source: Simulator, position: bigint | undefined, store: WorldPlace["store"]) => {
  const loader = makeLoader(store)
  for await (const page of logPages(source.store))
    for (const e of page) if (position === undefined || e.position <= position) await loader.add({ ...e, line: 0 })
  await loader.flush()
  return store
}

/**
 * A copy of another world, as it is now or at one of its snapshots: the same log, seed and time, so the same
 * answers (audit digest) until the two diverge. Its keys are the source's with fresh credentials: each copied
 * key is revoked and one with the same grant created (reads answer the same; the ids drawn after differ).
 */
export const forkedWorld = async (
  id: string,
  source: Simulator,
  at: { readonly position: bigint; readonly time: number } | undefined,
  adminToken: string,
  settings: WorldSettings,
  place: WorldPlace = inMemory(),
  assets: Fixture["assets"] = [],
): Promise<{ readonly world: World; readonly apiKeys: ReadonlyArray<WorldCredentials> }> => {
  await source.gate.shared(() => copiedLog(source, at?.position, place.store))
  const frozenAt = source.clock.isFrozen() ? (at?.time ?? source.clock.now()) : undefined
  const sim = await createSimulator({
    ...placed(place, frozenAt),
    seed: source.seed,
    adminToken,
    // The source's own asset ids, read as the source reads them.
    ...(assets.length > 0 ? { fixture: { assets } } : {}),
    defaultWorkspace: false,
    webhooks: settings.webhooks,
  })
  const apiKeys: Array<WorldCredentials> = []
  for (const record of [...sim.models.workspace.apiKeys.values()]) {
    if (record.revoked) continue
    const { key: _key, secret: _secret, passphraseSalt: _salt, passphraseHash: _hash, ...grant } = record.grant
    const input = freshKey({ ...grant, vaultIds: grant.vaultIds === null ? null : [...grant.vaultIds] })
    const exit = await sim.run(Effect.andThen(revokeApiKey(record.grant.key), createApiKey(input)))
    if (Exit.isFailure(exit)) throw new Error(`fork ${id}: cannot give key ${record.grant.key} fresh credentials`)
    apiKeys.push({ key: input.key!, secret: input.secret!, passphrase: input.passphrase!, apiVersion: grant.apiVersion })
  }
  await sim.run(sim.runner.pull)
  return { world: worldOf(id, sim, settings), apiKeys }
}
