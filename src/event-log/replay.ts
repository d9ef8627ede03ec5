// Replaying a scenario file into a fresh store: check every line, append in order (simulator.ts's openReplayed
// then opens a simulator on it).
import { Effect, Result } from "effect"
import type { EventStoreShape } from "../store/event-store.js"
import { EventChecker } from "./check.js"
import { LogReader, LogRejected, type LogHeader, type LoggedEvent } from "./format.js"
import { makeLoader } from "./load.js"
import { makeSecretFiller, type FilledSecrets, type SuppliedSecrets } from "./redaction.js"

export class StoreNotFresh extends Error {
  constructor(readonly head: bigint) {
    super(`the store already holds events (head position ${head}); a log is replayed only into an empty store`)
  }
}

export class HeaderRefused extends Error {}

export interface LoadResult {
  readonly header: LogHeader
  readonly events: number
  /** The secrets filled in for the keys and webhooks an export left without (fresh, or as supplied). */
  readonly filled: FilledSecrets
}

/**
 * Checks and appends the lines in order; throws LogRejected (with the line) or StoreNotFresh. Every event is
 * checked (its type's data, and a fold of the read models over a scratch copy) before it is appended. With
 * `checkFirst` the whole log is read and checked before anything is written (held in memory in between), so a
 * bad line leaves the store untouched.
 */
export const loadLog = async (
  lines: Iterable<string> | AsyncIterable<string>,
  store: EventStoreShape,
  options: {
    readonly checkFirst?: boolean
    readonly onAppended?: (count: number) => void
    /** Called every `progressEvery` events checked (default 100,000). */
    readonly onChecked?: (count: number) => void
    readonly progressEvery?: number
    /** Refuses a header (e.g. a seed other than the simulator's): the reason, or undefined to go on. */
    readonly acceptHeader?: (header: LogHeader) => string | undefined
    /**
     * Loads only the prefix up to this recorded position (a line's `position`, or its index among the events when
     * it has none): the scenario forked there. The rest of the file is still checked, not loaded.
     */
    readonly until?: bigint
    /** Secrets for keys and webhooks whose secrets the export left out; the others get fresh ones. */
    readonly secrets?: SuppliedSecrets
  } = {},
): Promise<LoadResult> => {
  const head = await Effect.runPromise(store.headPosition)
  if (head >= 0n) throw new StoreNotFresh(head)
  let accepted = false
  const reader = new LogReader()
  const checker = new EventChecker()
  const loader = makeLoader(store, options.onAppended)
  const held: Array<LoggedEvent> = []
  const secrets = makeSecretFiller(options.secrets)
  const every = options.progressEvery ?? 100_000
  let checked = 0
  for await (const text of lines) {
    const r = reader.read(text)
    if (Result.isFailure(r)) throw r.failure
    if (!accepted && reader.header !== undefined) {
      const refusal = options.acceptHeader?.(reader.header)
      if (refusal !== undefined) throw new HeaderRefused(refusal)
      accepted = true
    }
    if (r.success === undefined) continue
    const event = secrets.fill(r.success)
    if (typeof event === "string") throw new LogRejected({ line: r.success.line, reason: event })
    const refused = checker.check(event)
    if (refused !== undefined) throw new LogRejected({ line: event.line, reason: refused })
    if (++checked % every === 0) options.onChecked?.(checked)
    if (options.until !== undefined && event.position > options.until) continue
    if (options.checkFirst) held.push(event)
    else await loader.add(event)
  }
  const header = reader.finish()
  if (Result.isFailure(header)) throw header.failure
  for (const event of held) await loader.add(event)
  return { header: header.success, events: await loader.flush(), filled: secrets.filled }
}

export { LogRejected }
