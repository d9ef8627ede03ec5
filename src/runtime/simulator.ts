// What a running simulator offers the layers above it (the API, the log's replay and audit tools, the testing
// helper): its interface and the services its runtime provides, as types only. simulator.ts assembles one; the
// modules that are handed one import this, never the composition root.
import type { Effect, Exit } from "effect"
import type { ControllableClock } from "../adapters/clock.js"
import type { FaultCalls } from "../adapters/fault-calls-file.js"
import type { SeededIds } from "../adapters/ids.js"
import type { ChainError } from "../chain-sim/index.js"
import type { CommandMetaShape } from "../commands/run-decider.js"
import type { CommandServices } from "../commands/services.js"
import type { AssetIds } from "../domain/chains/index.js"
import type { VaultAggregateError } from "../domain/vault/index.js"
import type { Models } from "../process-managers/read-models.js"
import type { ReadModels } from "../projections/read-models.js"
import type { ProjectionRunner } from "../projections/runner.js"
import type { Gate } from "../snapshots/gate.js"
import type { SnapshotInfo } from "../snapshots/snapshots.js"
import type { EventStoreShape, StoreUnavailable, WrongExpectedVersion } from "../store/event-store.js"
import type { WebhookWorker } from "../webhooks/worker.js"
import type { CreatedCredentials } from "../workspace/bootstrap.js"

export type SimServices = CommandServices | Models
/** Failures a subsystem hook may report; the API's error table maps each. */
export type AppFailure = StoreUnavailable | WrongExpectedVersion | VaultAggregateError | ChainError

export interface Simulator {
  readonly store: EventStoreShape
  readonly clock: ControllableClock
  readonly ids: SeededIds
  readonly seed: string
  readonly adminToken: string
  /** The fixture's asset ids (`assets`): the API maps requests' and answers' asset ids at its edge. */
  readonly assetIds: AssetIds
  readonly models: ReadModels
  readonly runner: ProjectionRunner
  /** Runs a command or query with the simulator's services; the exit carries typed failures. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, SimServices>, meta?: CommandMetaShape) => Promise<Exit.Exit<A, E>>
  /** Work the passage of simulated time triggers (interval mining, due webhook retries); hooks are added by subsystems. */
  readonly afterClockAdvance: () => Effect.Effect<void, AppFailure, SimServices>
  readonly onClockAdvance: (hook: () => Effect.Effect<void, AppFailure, SimServices>) => void
  /** Runs the clock hooks every `everyMs` of wall time while the clock follows wall time (the CLI starts it). */
  readonly startTicker: (everyMs?: number) => void
  /** Credentials created at start (default workspace or fixture keys with generated parts). */
  readonly createdCredentials: ReadonlyArray<CreatedCredentials>
  /** The webhook delivery worker; undefined when created with `webhooks: false`. A revert starts a new one. */
  readonly webhooks: WebhookWorker | undefined
  /** Requests run through it (the app does), so that a revert never lands in the middle of one. */
  readonly gate: Gate
  /** Records the world as it is now (after the requests in flight) and returns its id, position and time. */
  readonly snapshot: () => Promise<SnapshotInfo>
  readonly snapshots: () => ReadonlyArray<SnapshotInfo>
  /**
   * Puts the world back as it was at the snapshot: the log is cut back to its position, the read models, id
   * sequence and clock are as they were then; snapshots taken after it are dropped. Throws SnapshotNotFound, or
   * RevertNotSupported on a store whose log only grows.
   */
  readonly revert: (id: string) => Promise<SnapshotInfo>
  /** Back to the world right after start-up (the fixture's or default workspace): same ids and credentials. */
  readonly reset: () => Promise<SnapshotInfo>
  /** Position of the checkpoint the read models were loaded from at start (only the events after it were folded). */
  readonly restoredFrom: bigint | undefined
  /** Writes a read-model checkpoint of the log now (with `checkpoints`); its position, or null when none was written. */
  readonly checkpoint: () => Promise<bigint | null>
  /** The calls each fault in force has matched on this node (/_sim/faults' `every` and `probability` count them). */
  readonly faultCalls: FaultCalls
  readonly close: () => Promise<void>
}
