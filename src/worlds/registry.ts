// The server's worlds (docs/worlds.md): the server's own and those POST /_sim/worlds creates, found by their API
// keys and admin tokens; a limit on their number, idle expiry, and one wall-clock ticker for all their clocks.
import { Effect } from "effect"
import type { Hono } from "hono"
import { createApp, createWorldApps, type AppOptions, type WorldRouting } from "../api/app.js"
import { ApiError } from "../api/errors.js"
import {
  worldRoutes,
  type CreatedWorld,
  type WorldCredentials,
  type WorldInfo,
  type WorldSource,
  type WorldsControl,
} from "../api/sim/worlds.js"
import { DEFAULT_FIXTURE, type Fixture, type Simulator, type SimulatorOptions } from "../simulator.js"
import { freshAdminToken, withFreshCredentials, withoutCredentials } from "./credentials.js"
import { WorldDirectory } from "./directory.js"
import { memoryWorlds, reopenedWorld, type WorldRecord, type WorldStorage } from "./saved.js"
import { forkedWorld, worldFromFixture, type World, type WorldPlace, type WorldSettings } from "./world.js"

export const DEFAULT_MAX_WORLDS = 1000

export interface WorldsOptions {
  /** The server's own simulator and the fixture it started from (default: the default workspace). */
  readonly server: Simulator
  readonly serverFixture?: Fixture
  /** Every world's app options; the server's world also serves the dashboard unless `dashboard: false`. */
  readonly app?: AppOptions
  /** Worlds besides the server's at most (default DEFAULT_MAX_WORLDS). */
  readonly maxWorlds?: number
  /** A world with no request for this long (ms) is deleted. */
  readonly ttlMs?: number
  /** Wall time for idle expiry, UNIX ms (default Date.now). */
  readonly wallNow?: () => number
  /** Why this server cannot hold worlds (its store), or undefined when it can. */
  readonly unsupported?: string
  /** The worlds' webhook delivery (default: on, on the main thread). */
  readonly webhooks?: SimulatorOptions["webhooks"]
  /** Where the worlds are kept (default: in memory, each its own memory store; saved.ts). */
  readonly storage?: WorldStorage
}

export interface Worlds {
  readonly routing: WorldRouting
  /** The server world's own app (its dashboard, the control plane of every world). */
  readonly serverApp: Hono
  readonly control: WorldsControl
  readonly size: () => number
  /** Reopens the worlds a previous start kept (files: saved.ts); resolves with how many. */
  readonly restore: () => Promise<number>
  /** A world by id (the server's is "server"). */
  readonly world: (id: string) => World | undefined
  /** Deletes the worlds idle past the TTL now (the ticker does every second). */
  readonly expireIdle: () => Promise<void>
  /** Closes every world but the server's (the server closes its own simulator); kept worlds stay kept. */
  readonly close: () => Promise<void>
}

const taken = (what: string) =>
  new ApiError(
    409,
    "world_credentials_taken",
    `The fixture's ${what} belongs to another world: give another, or leave it out for a fresh one.`,
  )

const info = (w: World): WorldInfo => ({
  id: w.id,
  server: w.server,
  created: w.created,
  logHead: Number(w.sim.models.position),
  keys: [...w.sim.models.workspace.apiKeys.values()].filter((k) => !k.revoked).map((k) => k.grant.key),
})

const answer = (w: World, apiKeys: CreatedWorld["apiKeys"]): CreatedWorld => ({
  id: w.id,
  adminToken: w.sim.adminToken,
  apiKeys,
  vaults: w.sim.models.workspace.vaultList(undefined).map((v) => ({ id: v.profile.vaultId, name: v.profile.name, type: v.profile.type })),
})

/** A new world in its place: closed and removed again when its creation fails, kept once it is complete. */
const placedWorld = async <A extends { readonly world: World }>(
  storage: WorldStorage,
  id: string,
  make: (place: WorldPlace) => Promise<A>,
  record: (made: A) => WorldRecord,
): Promise<A> => {
  const place = storage.place(id)
  let made: A
  try {
    made = await make(place)
  } catch (e) {
    await storage.end(id, async () => void (await place.store.close?.()))
    throw e
  }
  storage.keep(record(made))
  return made
}

/** How POST /_sim/worlds makes a world: from a fixture (or the server's, with fresh credentials), or as a fork. */
const worldMaker = (options: WorldsOptions, directory: WorldDirectory, settings: WorldSettings, storage: WorldStorage) => {
  const { server } = options
  // Every world's asset ids (a fork reads its source's), the server's from its fixture.
  const assets = new Map<string, Fixture["assets"]>([[directory.server.id, options.serverFixture?.assets]])
  // The credentials each world's creation answered: a world keeps a passphrase only as a hash.
  const credentials = new Map<string, ReadonlyArray<WorldCredentials>>()
  const nextId = () => {
    for (;;) {
      const n = storage.made() + 1
      storage.setMade(n)
      const id = `w${Buffer.from(server.ids.bytes(`world:${n}`, 6)).toString("hex")}`
      if (directory.get(id) === undefined) return id
    }
  }
  const recordOf = (w: World, seed: string, given: Fixture["assets"], apiKeys: ReadonlyArray<WorldCredentials>): WorldRecord => {
    assets.set(w.id, given)
    credentials.set(w.id, apiKeys)
    return { id: w.id, seed, adminToken: w.sim.adminToken, created: w.created, ...(given !== undefined ? { assets: given } : {}), apiKeys }
  }
  const fromFixture = async (given: Fixture | undefined): Promise<CreatedWorld | ApiError> => {
    const fixture = withFreshCredentials(given ?? withoutCredentials(options.serverFixture ?? DEFAULT_FIXTURE, server.seed))
    if (directory.byToken(fixture.adminToken) !== undefined) return taken("adminToken")
    // Only the keys the fixture names can be taken: a fresh one (credentials.ts) is drawn at random, and looking
    // one up that no world holds scans every world (directory.ts).
    for (const k of given?.apiKeys ?? []) if (k.key !== undefined && directory.byKey(k.key) !== undefined) return taken(`API key ${k.key}`)
    const seed = fixture.seed ?? server.seed
    const id = nextId()
    const { world: w, apiKeys } = await placedWorld(
      storage,
      id,
      async (place) => {
        const world = await worldFromFixture(id, fixture, seed, settings, place)
        const version = (key: string) => world.sim.models.workspace.apiKeys.get(key)?.grant.apiVersion ?? ""
        return { world, apiKeys: world.sim.createdCredentials.map((c) => ({ ...c, apiVersion: version(c.key) })) }
      },
      (made) => recordOf(made.world, seed, fixture.assets, made.apiKeys),
    )
    directory.add(w)
    return answer(w, apiKeys)
  }
  const fork = async (from: { readonly world: string; readonly snapshot?: string }): Promise<CreatedWorld | ApiError> => {
    const source = directory.get(from.world)
    if (source === undefined) return new ApiError(404, "world_not_found", `No world ${JSON.stringify(from.world)}.`)
    const at = from.snapshot === undefined ? undefined : source.sim.snapshots().find((s) => s.id === from.snapshot)
    if (from.snapshot !== undefined && at === undefined)
      return new ApiError(404, "snapshot_not_found", `World ${source.id} has no snapshot ${JSON.stringify(from.snapshot)}.`)
    const sourceAssets = assets.get(source.id)
    const id = nextId()
    const { world, apiKeys } = await placedWorld(
      storage,
      id,
      (place) => forkedWorld(id, source.sim, at, freshAdminToken(), settings, place, sourceAssets ?? []),
      (made) => recordOf(made.world, source.sim.seed, sourceAssets, made.apiKeys),
    )
    directory.add(world)
    return answer(world, apiKeys)
  }
  const reopen = async (record: WorldRecord, place: WorldPlace) => {
    assets.set(record.id, record.assets)
    credentials.set(record.id, record.apiKeys ?? [])
    directory.add(await reopenedWorld(record, place, settings))
  }
  return {
    make: (source: WorldSource): Promise<CreatedWorld | ApiError> => ("from" in source ? fork(source.from) : fromFixture(source.fixture)),
    reopen,
    credentials: (id: string) => credentials.get(id),
    forget: (id: string) => {
      assets.delete(id)
      credentials.delete(id)
    },
  }
}

/**
 * One pass of every world's clock hooks (interval mining, settlement, due webhook retries) while it follows wall
 * time; one at a time per world. A world whose log knows no chain has nothing the passage of time changes: no
 * block, no deposit, no request (a request spends funds a chain credited) and so no notification.
 */
const tickAll = (worlds: Iterable<World>) => {
  for (const w of worlds) {
    if (w.ticking || w.sim.clock.isFrozen() || w.sim.models.chains.chains.size === 0) continue
    w.ticking = true
    void Promise.resolve(w.sim.gate.shared(() => w.sim.run(Effect.suspend(() => w.sim.afterClockAdvance())))).finally(() => {
      w.ticking = false
    })
  }
}

export const createWorlds = (options: WorldsOptions): Worlds => {
  const { server } = options
  const maxWorlds = options.maxWorlds ?? DEFAULT_MAX_WORLDS
  const wallNow = options.wallNow ?? Date.now
  const control: WorldsControl = {
    create: (s) => create(s),
    list: () => directory.all().map(info),
    credentials: (id) => {
      const w = directory.get(id)
      if (w === undefined) return undefined
      const version = (key: string) => w.sim.models.workspace.apiKeys.get(key)?.grant.apiVersion ?? ""
      const apiKeys = w.server ? w.sim.createdCredentials.map((c) => ({ ...c, apiVersion: version(c.key) })) : (maker.credentials(id) ?? [])
      return { adminToken: w.sim.adminToken, apiKeys }
    },
    remove: (id) => remove(id),
  }
  const serverApp = createApp(server, { ...options.app, simRoutes: [...(options.app?.simRoutes ?? []), ...worldRoutes(control)] })
  const created = new Date().toISOString()
  const directory = new WorldDirectory({
    id: "server",
    sim: server,
    fetch: serverApp.fetch,
    created,
    server: true,
    lastUsed: 0,
    ticking: false,
  })
  const settings: WorldSettings = {
    apps: createWorldApps(options.app),
    frozenAt: server.clock.isFrozen() ? server.clock.now() : undefined,
    webhooks: options.webhooks ?? {},
    wallNow,
  }
  const storage = options.storage ?? memoryWorlds()
  const maker = worldMaker(options, directory, settings, storage)

  const create = async (source: WorldSource): Promise<CreatedWorld | ApiError> => {
    if (options.unsupported !== undefined) return new ApiError(501, "worlds_not_supported", options.unsupported)
    if (directory.size >= maxWorlds)
      return new ApiError(
        409,
        "world_limit_reached",
        `This server holds ${directory.size} worlds, its limit (serve --max-worlds): delete one (DELETE /_sim/worlds/{id}) first.`,
      )
    return maker.make(source)
  }
  const remove = async (id: string): Promise<true | ApiError> => {
    if (id === directory.server.id) return new ApiError(409, "world_not_deletable", "The server's own world ends with the server.")
    const w = directory.get(id)
    if (w === undefined) return new ApiError(404, "world_not_found", `No world ${JSON.stringify(id)}.`)
    directory.delete(w)
    maker.forget(id)
    // Its webhook worker stops with it: deliveries still due are never sent. Its log goes with it.
    await storage.end(id, () => w.sim.close())
    return true
  }
  const expireIdle = async () => {
    const now = wallNow()
    const idle = [...directory.created()].filter((w) => options.ttlMs !== undefined && now - w.lastUsed > options.ttlMs)
    await Promise.all(idle.map((w) => remove(w.id)))
  }
  const ticker = setInterval(() => {
    void expireIdle()
    tickAll(directory.created())
  }, 1000)
  ticker.unref()

  const used = (w: World | undefined) => {
    if (w !== undefined) w.lastUsed = wallNow()
    return w
  }
  return {
    routing: { server: directory.server, byKey: (key) => used(directory.byKey(key)), byToken: (token) => used(directory.byToken(token)) },
    serverApp,
    control,
    size: () => directory.size,
    restore: async () => {
      // One at a time: each replays its log into its read models.
      for (const { record, place } of storage.saved()) await maker.reopen(record, place)
      return directory.size
    },
    world: (id) => directory.get(id),
    expireIdle,
    close: async () => {
      clearInterval(ticker)
      const open = [...directory.created()]
      for (const w of open) directory.delete(w)
      await Promise.all(open.map((w) => w.sim.close()))
    },
  }
}
