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

interface ReadOptions {
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
}

/** A whole log read and checked, nothing written yet: what `appendChecked` writes. */
export interface CheckedLog {
  readonly header: LogHeader
  readonly events: ReadonlyArray<LoggedEvent>
  readonly filled: FilledSecrets
}

/**
 * Reads and checks every line, in order; each checked event goes to `take` (held, or appended at once). Throws
 * LogRejected (with the line) or HeaderRefused.
 */
const readLog = async (
  lines: Iterable<string> | AsyncIterable<string>,
  options: ReadOptions,
  take: (event: LoggedEvent) => void | Promise<void>,
): Promise<{ header: LogHeader; filled: FilledSecrets }> => {
  let accepted = false
  const reader = new LogReader()
  const checker = new EventChecker()
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
    await take(event)
  }
  const header = reader.finish()
  if (Result.isFailure(header)) throw header.failure
  return { header: header.success, filled: secrets.filled }
}

/**
 * The whole log read and checked (held in memory), with no store in sight: a bad line (LogRejected, HeaderRefused)
 * is found before anything is opened or written.
 */
export const checkLog = async (lines: Iterable<string> | AsyncIterable<string>, options: ReadOptions = {}): Promise<CheckedLog> => {
  const events: Array<LoggedEvent> = []
  const { header, filled } = await readLog(lines, options, (event) => void events.push(event))
  return { header, events, filled }
}

/** Appends a checked log to a store that must still be empty (StoreNotFresh otherwise). */
export const appendChecked = async (log: CheckedLog, store: EventStoreShape, onAppended?: (count: number) => void): Promise<LoadResult> => {
  const head = await Effect.runPromise(store.headPosition)
  if (head >= 0n) throw new StoreNotFresh(head)
  const loader = makeLoader(store, onAppended)
  for (const event of log.events) await loader.add(event)
  return { header: log.header, events: await loader.flush(), filled: log.filled }
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
  options: ReadOptions & { readonly checkFirst?: boolean; readonly onAppended?: (count: number) => void } = {},
): Promise<LoadResult> => {
  const head = await Effect.runPromise(store.headPosition)
  if (head >= 0n) throw new StoreNotFresh(head)
  if (options.checkFirst) return appendChecked(await checkLog(lines, options), store, options.onAppended)
  const loader = makeLoader(store, options.onAppended)
  const { header, filled } = await readLog(lines, options, (event) => loader.add(event))
  return { header, events: await loader.flush(), filled }
}

export { LogRejected }
