// Composition root of one simulator: store, clock, ids, read models, runtime. Used by the CLI, tests and users.
import { Cause, Effect, Exit, Layer, ManagedRuntime, References } from "effect"
import { CommandMeta, IdSequence, type CommandMetaShape } from "./commands/run-decider.js"
import { derivationLayer, makeDerivation } from "./adapters/derivation.js"
import { AggregateCache, makeAggregateCache } from "./commands/aggregate-cache.js"
import { ReadModels } from "./projections/read-models.js"
import { haltMessage, makeProjectionRunner } from "./projections/runner.js"
import { clockLayer } from "./adapters/clock.js"
import { resumeClock, writeClockFile, type ClockOptions } from "./adapters/clock-file.js"
import { type FaultCalls, makeFaultCalls } from "./adapters/fault-calls-file.js"
import { idsLayer, makeIds } from "./adapters/ids.js"
import { createStartupWorkspace, type CreatedCredentials, type Fixture } from "./workspace/bootstrap.js"
import { settleAll } from "./process-managers/clock.js"
import { Models } from "./process-managers/read-models.js"
import { requestLookup } from "./webhooks/payload.js"
import { startWebhookWorker, type WebhookWorkerOptions } from "./webhooks/worker.js"
import { EventStore, type EventStoreShape } from "./store/event-store.js"
import { makeGate } from "./snapshots/gate.js"
import { makeAssetIds } from "./domain/chains/index.js"
import { NEWEST_API_VERSION } from "./domain/api-key/index.js"
import { makeSnapshots } from "./snapshots/snapshots.js"
import { loadCheckpoint, startCheckpointer, type Checkpointer, type CheckpointOptions } from "./checkpoints/checkpoints.js"
import type { AppFailure, Simulator, SimServices } from "./runtime/simulator.js"

export type { CreatedCredentials, Fixture, Simulator }

export interface SimulatorOptions {
  readonly store: EventStoreShape & { close?: () => void | Promise<void> }
  readonly seed?: string
  readonly adminToken?: string
  /**
   * Simulated time: follows the wall clock by default; `frozenAt` (UNIX ms) holds it still until advanced. With
   * `dataDir`, where it stands is kept there and a restart resumes from it (never earlier). It never starts before
   * the log's last event.
   */
  readonly clock?: ClockOptions
  readonly fixture?: Fixture
  /** Create the default workspace (a test and a main vault, one API key) when the store is empty and no fixture is given. */
  readonly defaultWorkspace?: boolean
  /** Follow the store's live subscription (several simulators on one store). */
  readonly follow?: boolean
  /** Told once when a read model meets an event it cannot apply (default: one line on stderr). */
  readonly onHalt?: (message: string) => void
  /** Mixed into generated ids so that nodes sharing a store and seed never collide; "" (default) for a lone node. */
  readonly nodeId?: string
  /**
   * Read-model checkpoints in this directory (the SQLite store's data directory): loaded at start, written every
   * `every` events on a thread of their own and at close. Only for a store no other process writes to.
   */
  readonly checkpoints?: CheckpointOptions
  /** Keep the calls each fault matched in this directory's fault-calls.json, so a restart counts on from them. */
  readonly faultCallsDir?: string
  /**
   * Deliver webhooks (default true); an object tunes the worker (concurrency, timeout, global retry schedule). With
   * `follow` on a store that offers consumer groups (EventStoreDB), each delivery is attempted by one node (`shared`).
   */
  readonly webhooks?: boolean | WebhookWorkerOptions
}

/** Simulators open on each store object in this process: a revert refuses a store that others read too. */
const openOn = new WeakMap<EventStoreShape, number>()

export const createSimulator = async (options: SimulatorOptions): Promise<Simulator> => {
  const seed = options.fixture?.seed ?? options.seed ?? "custody-sim"
  const assetIds = makeAssetIds(options.fixture?.assets)
  const ids = makeIds(seed, options.nodeId)
  const clock = resumeClock(options.clock ?? {})
  const models = new ReadModels()
  const store = options.store
  const runner = makeProjectionRunner(store, models, undefined, (h) =>
    (options.onHalt ?? ((m) => process.stderr.write(`${m}\n`)))(haltMessage(h)),
  )
  const { runtime, run, must, aggregates, cursors } = startRuntime({ store, clock, ids, models, runner })

  const loaded = options.checkpoints === undefined ? undefined : await loadCheckpoint(options.checkpoints, store, models)
  await catchUp({ store, clock, ids, models, runner }, must)
  // Written at once: a frozen clock killed before it ever moved resumes frozen too.
  const saveClock = () => options.clock?.dataDir !== undefined && writeClockFile(options.clock.dataDir, clock.state())
  saveClock()
  const createdCredentials = await seedWorkspace(options, seed, { ids, models, runner }, run, must)
  let following = options.follow ? await must(runner.follow) : undefined
  const checkpointer: Checkpointer | undefined =
    options.checkpoints === undefined ? undefined : await startCheckpointer(options.checkpoints, store, loaded)
  const adminToken = options.fixture?.adminToken ?? options.adminToken ?? Buffer.from(ids.bytes("adminToken", 18)).toString("base64url")
  const clockHooks: Array<() => Effect.Effect<void, AppFailure, SimServices>> = [() => settleAll]
  const faultCalls = makeFaultCalls(options.faultCallsDir, (id) => models.faults.get(id) !== undefined)
  const startWebhooks = webhookStarter(options, { store, clock, models, runner, assetIds, faultCalls }, run)
  let webhooks = startWebhooks()
  if (webhooks !== undefined) clockHooks.push(() => Effect.sync(() => webhooks?.wake()))
  const gate = makeGate()
  openOn.set(store, (openOn.get(store) ?? 0) + 1)
  const snapshots = makeSnapshots({
    store,
    shared: () => (openOn.get(store) ?? 0) > 1,
    models,
    ids,
    clock,
    faultCalls,
    gate,
    pull: runner.pull,
    rewound: runner.rewound,
    run: async (effect) => {
      const exit = await run(effect)
      if (Exit.isFailure(exit)) throw Cause.squash(exit.cause)
      return exit.value
    },
    beforeTruncate: async (position) => void (await checkpointer?.beforeTruncate(position)),
    pause: async () => {
      await checkpointer?.pause()
      await webhooks?.stop()
      if (following) await Effect.runPromise(following.stop)
      following = undefined
    },
    resume: async () => {
      // Derived from the replaced world: aggregate states folded from removed events, process-manager cursors.
      aggregates.clear()
      cursors.clear()
      webhooks = startWebhooks()
      if (options.follow) following = await must(runner.follow)
      await checkpointer?.resume()
    },
  })
  const ticker = makeTicker(clock, gate, () => run(Effect.forEach(clockHooks, (h) => h(), { discard: true })))
  return {
    afterClockAdvance: () => Effect.forEach(clockHooks, (h) => h(), { discard: true }),
    onClockAdvance: (hook) => {
      clockHooks.push(hook)
    },
    store,
    clock,
    ids,
    seed,
    adminToken,
    assetIds,
    models,
    runner,
    run,
    createdCredentials,
    get webhooks() {
      return webhooks
    },
    gate,
    snapshot: snapshots.take,
    snapshots: snapshots.list,
    revert: snapshots.revert,
    reset: snapshots.reset,
    restoredFrom: loaded?.position,
    checkpoint: async () => (checkpointer === undefined ? null : checkpointer.save()),
    startTicker: ticker.start,
    faultCalls,
    close: async () => {
      openOn.set(store, (openOn.get(store) ?? 1) - 1)
      ticker.stop()
      await webhooks?.stop()
      if (following) await Effect.runPromise(following.stop)
      await checkpointer?.close()
      for (const save of [saveClock, faultCalls.save]) save()
      await runtime.dispose()
      await options.store.close?.()
    },
  }
}

type Ids = ReturnType<typeof makeIds>
type Clock = ReturnType<typeof resumeClock>
type Runner = ReturnType<typeof makeProjectionRunner>
type Run = Simulator["run"]
type Must = <A, E>(effect: Effect.Effect<A, E, SimServices>) => Promise<A>

/** The services every command runs with, and the runtime that provides them: `run` a command, `must` a start-up one. */
const startRuntime = (parts: {
  readonly store: EventStoreShape
  readonly clock: Clock
  readonly ids: Ids
  readonly models: ReadModels
  readonly runner: Runner
}) => {
  const { store, clock, ids, models, runner } = parts
  // Derived state a revert clears: aggregate states folded from removed events, process-manager cursors.
  const aggregates = makeAggregateCache()
  const cursors = new Map<string, number>()
  const layer = Layer.mergeAll(
    Layer.succeed(EventStore, store),
    clockLayer(clock),
    idsLayer(ids),
    Layer.succeed(IdSequence, { current: ids.sequence, epoch: ids.epoch }),
    derivationLayer(makeDerivation(ids.seed)),
    Layer.succeed(AggregateCache, aggregates),
    // Spans go nowhere here (no tracer is installed); not registering them keeps every command cheaper.
    Layer.succeed(References.TracerEnabled, false),
    Layer.succeed(Models, { models, awaitPosition: (p) => runner.awaitPosition(p), cursors }),
  )
  const runtime = ManagedRuntime.make(layer)
  const run = <A, E>(effect: Effect.Effect<A, E, SimServices>, meta?: CommandMetaShape) =>
    runtime.runPromiseExit(meta === undefined ? effect : Effect.provideService(effect, CommandMeta, meta))
  const must: Must = async (effect) => {
    const exit = await run(effect)
    if (Exit.isFailure(exit)) throw new Error(`start-up command failed: ${JSON.stringify(exit.cause)}`)
    return exit.value
  }
  return { runtime, run, must, aggregates, cursors }
}

/** Reads the log into the models (from a checkpoint's position, if one was loaded), and the ids and clock past it. */
const catchUp = async (
  parts: {
    readonly store: EventStoreShape
    readonly clock: Clock
    readonly ids: Ids
    readonly models: ReadModels
    readonly runner: Runner
  },
  must: Must,
): Promise<void> => {
  const { store, clock, ids, models, runner } = parts
  await must(runner.pull)
  ids.restore(models.lastSeq)
  // The epoch a revert started is in the store even when its cut left no event of it in the log.
  ids.reachEpoch(Math.max(models.lastEpoch, store.epoch === undefined ? 0 : await must(store.epoch)))
  if (models.timeline.headTime > clock.now()) clock.advance(models.timeline.headTime - clock.now())
}

/** On an empty store, the fixture's workspace (or the default one): the credentials it created. */
const seedWorkspace = async (
  options: SimulatorOptions,
  seed: string,
  parts: { readonly ids: Ids; readonly models: ReadModels; readonly runner: Runner },
  run: Run,
  must: Must,
): Promise<Array<CreatedCredentials>> => {
  const { ids, models, runner } = parts
  const createdCredentials: Array<CreatedCredentials> = []
  if (models.position < 0n) {
    const fixture = options.fixture ?? (options.defaultWorkspace ? DEFAULT_FIXTURE : undefined)
    if (fixture !== undefined) createdCredentials.push(...(await createStartupWorkspace(run, fixture, seed, ids)))
    await must(runner.pull)
    ids.restore(models.lastSeq)
  }
  return createdCredentials
}

/** How to start the webhook worker (again after a revert), or undefined when webhooks are off. */
const webhookStarter = (
  options: SimulatorOptions,
  parts: {
    readonly store: EventStoreShape
    readonly clock: Clock
    readonly models: ReadModels
    readonly runner: Runner
    readonly assetIds: ReturnType<typeof makeAssetIds>
    readonly faultCalls: FaultCalls
  },
  run: Run,
) => {
  const { store, clock, models, runner, assetIds, faultCalls } = parts
  const webhookOptions = typeof options.webhooks === "object" ? options.webhooks : {}
  // A node following a store other nodes share delivers only what the store's consumer groups give it.
  const shared =
    webhookOptions.shared ?? (options.follow === true && store.consumerGroups !== undefined ? { groups: store.consumerGroups } : undefined)
  return () =>
    options.webhooks === false
      ? undefined
      : startWebhookWorker(
          {
            outbox: models.outbox,
            faults: models.faults,
            faultCalls,
            requestOf: requestLookup(models),
            ...(assetIds.any ? { assetIdToWire: assetIds.toWire } : {}),
            clock,
            run,
            awaitPosition: runner.awaitPosition,
            position: () => models.position,
          },
          { ...webhookOptions, ...(shared !== undefined ? { shared } : {}) },
        )
}

/** The wall-clock ticker: runs the clock hooks every `everyMs` while time is not frozen, one pass at a time. */
const makeTicker = (clock: Clock, gate: ReturnType<typeof makeGate>, hooks: () => Promise<unknown>) => {
  let ticking = false
  let ticker: ReturnType<typeof setInterval> | undefined
  return {
    start: (everyMs = 1000) => {
      // While simulated time follows the wall clock, interval blocks and confirmations come due by themselves.
      ticker ??= setInterval(() => {
        if (ticking || clock.isFrozen()) return
        ticking = true
        void Promise.resolve(gate.shared(hooks)).finally(() => {
          ticking = false
        })
      }, everyMs)
      ticker.unref()
    },
    stop: () => {
      if (ticker !== undefined) clearInterval(ticker)
    },
  }
}

/** A simulator over a replayed store (event-log/replay.ts's loadLog): every read model rebuilt from the log, its clock at the log's last time. */
export const openReplayed = (store: EventStoreShape & { close?: () => void | Promise<void> }, seed: string | null): Promise<Simulator> =>
  createSimulator({ store, ...(seed !== null ? { seed } : {}), clock: { frozenAt: 0 }, defaultWorkspace: false })

/** The workspace a store starts with when no fixture is given (and a world without one, with fresh credentials). */
export const DEFAULT_FIXTURE: Fixture = {
  vaults: [
    { name: "Test vault", type: "test", color: "#2E7D32" },
    { name: "Main vault", type: "main", color: "#1565C0" },
  ],
  // The newest version, as the service gives a new key (README: API versions); a data dir made before keeps its
  // key's version, which is in the log.
  apiKeys: [{ name: "default", apiVersion: NEWEST_API_VERSION }],
}
