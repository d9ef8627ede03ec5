// One world: a full simulator (createSimulator) on a memory store of its own, and the app that answers for it (its
// deps on the route table every world shares, createWorldApps).
import { Effect, Exit } from "effect"
import type { Fetch, WorldApps } from "../api/app.js"
import type { WorldCredentials } from "../api/sim/worlds.js"
import { createApiKey, revokeApiKey } from "../commands/workspace.js"
import { makeLoader } from "../event-log/load.js"
import { logPages } from "../event-log/pages.js"
import { createSimulator, type Fixture, type Simulator, type SimulatorOptions } from "../simulator.js"
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

const worldOf = (id: string, sim: Simulator, settings: WorldSettings): World => ({
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
): Promise<World> => {
  const sim = await createSimulator({
    store: makeMemoryStore(),
    seed,
    fixture: { ...fixture, seed },
    clock: settings.frozenAt !== undefined ? { frozenAt: settings.frozenAt } : {},
    webhooks: settings.webhooks,
  })
  return worldOf(id, sim, settings)
}

/** The source's log up to `position` (all of it when undefined), copied into a new memory store. */
const copiedLog = async (source: Simulator, position: bigint | undefined) => {
  const store = makeMemoryStore()
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
): Promise<{ readonly world: World; readonly apiKeys: ReadonlyArray<WorldCredentials> }> => {
  const store = await source.gate.shared(() => copiedLog(source, at?.position))
  const frozenAt = source.clock.isFrozen() ? (at?.time ?? source.clock.now()) : undefined
  const sim = await createSimulator({
    store,
    seed: source.seed,
    adminToken,
    clock: frozenAt !== undefined ? { frozenAt } : {},
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
