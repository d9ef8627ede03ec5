// The one mechanism that runs what the simulator does by itself after a write: broadcast a request once it is
// broadcasted (auto policy or last approval), credit deposits that waited for their asset once it is held,
// settle a chain whose mempool, blocks or schedule changed. Routes and command handlers never start a process
// manager; the use-case edge hands each append's events here. A follow-up's failure does not undo the write
// the caller was answered for: it is logged and retried, then left to the clock's settlement pass.
import { Cause, Context, Effect } from "effect"
import type { AddressDerivation, Ids, SimClock } from "../commands/services.js"
import { absurd } from "../domain/shared/decider.js"
import { storedAs } from "../events/stored-event.js"
import type { EventStore } from "../store/event-store.js"
import { broadcast } from "./broadcast.js"
import { creditHeldDeposits } from "./deposits.js"
import { sync, type Models } from "./read-models.js"
import { settle } from "./settle.js"

export interface AppendedEvent {
  readonly type: string
  readonly data: unknown
}

export interface FollowUpFailure {
  readonly followUp: string
  readonly attempt: number
  readonly attempts: number
  /** The failure (a tagged error, or the defect thrown), and the whole cause as text. */
  readonly error: unknown
  readonly cause: string
}

const failure = (followUp: string, attempt: number, attempts: number, cause: Cause.Cause<unknown>): FollowUpFailure => ({
  followUp,
  attempt,
  attempts,
  error: Cause.squash(cause),
  cause: Cause.pretty(cause),
})

/** Where follow-up failures go; the API hands its logger in, a bare simulator writes to stderr. */
export const FollowUpLog = Context.Reference<{ readonly failed: (f: FollowUpFailure) => void }>(
  "custody-sim/process-managers/FollowUpLog",
  {
    defaultValue: () => ({ failed: (f) => console.error(JSON.stringify({ level: "error", ...f })) }),
  },
)

/** Tries a follow-up this many times in all before leaving it to the next settlement pass. */
export const FOLLOW_UP_ATTEMPTS = 3

interface FollowUp {
  readonly name: string
  readonly run: Effect.Effect<void, unknown, EventStore | SimClock | Ids | AddressDerivation | Models>
}

/** The event types that call for a follow-up. */
const followedTypes = new Set([
  "TxRequestProgressed",
  "AssetAdded",
  "AddressDerived",
  "ChainConfigured",
  "ChainTxSubmitted",
  "ChainBlocksMined",
  "ChainTxRejected",
] as const)

/** The follow-ups a batch of appended events calls for, in the order they must run. */
export const followUpsOf = (events: ReadonlyArray<AppendedEvent>) => {
  const out: Array<FollowUp> = []
  const chains = new Set<string>()
  for (const appended of events) {
    const e = storedAs(appended, followedTypes)
    switch (e?.type) {
      case "TxRequestProgressed":
        if (e.data.status === "broadcasted")
          out.push({ name: `broadcast ${e.data.requestId}`, run: broadcast(e.data.vaultId, e.data.requestId) })
        break
      case "AssetAdded":
        out.push({
          name: `credit held deposits ${e.data.address}`,
          run: creditHeldDeposits(e.data.blockchain, e.data.network, e.data.address, e.data.assetId),
        })
        break
      case "AddressDerived":
        // A UTXO address holds its coin from derivation: deposits it received before are credited now.
        for (const assetId of e.data.assetIds)
          out.push({
            name: `credit held deposits ${e.data.address}`,
            run: creditHeldDeposits(e.data.blockchain, e.data.network, e.data.address, assetId),
          })
        break
      case "ChainConfigured":
      case "ChainTxSubmitted":
      case "ChainBlocksMined":
      case "ChainTxRejected":
        chains.add(e.data.chain)
        break
      case undefined:
        break
      default:
        // A type in followedTypes with no case here fails to compile.
        absurd(e)
    }
  }
  for (const chain of chains) out.push({ name: `settle ${chain}`, run: settle(chain) })
  return out
}

/** Runs the follow-ups of one append, after the read models include it. Never fails. */
export const afterAppend = (appended: { readonly position: bigint; readonly events?: ReadonlyArray<AppendedEvent> }) =>
  Effect.gen(function* () {
    if (appended.position < 0n || appended.events === undefined) return
    const log = yield* FollowUpLog
    yield* sync(appended.position).pipe(
      Effect.catchCause((cause) => Effect.sync(() => log.failed(failure("await read models", 1, 1, cause)))),
    )
    for (const f of followUpsOf(appended.events)) {
      for (let attempt = 1; attempt <= FOLLOW_UP_ATTEMPTS; attempt++) {
        const failed = yield* f.run.pipe(
          Effect.as(false),
          Effect.catchCause((cause) => Effect.sync(() => (log.failed(failure(f.name, attempt, FOLLOW_UP_ATTEMPTS, cause)), true))),
        )
        if (!failed) break
      }
    }
  })

/** A use case with its follow-ups: the edge every route and control-plane call runs writes through. */
export const withFollowUps = <A extends { readonly position: bigint; readonly events?: ReadonlyArray<AppendedEvent> }, E, R>(
  useCase: Effect.Effect<A, E, R>,
) => Effect.tap(useCase, (a) => afterAppend(a))
