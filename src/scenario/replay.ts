// Replaying a scenario file into a fresh store: check every line, append in order, then open a simulator on it.
import { Effect, Result } from "effect"
import { createSimulator, type Simulator } from "../simulator.js"
import type { EventStoreShape } from "../store/event-store.js"
import { LogReader, LogRejected, type LogHeader } from "./format.js"
import { makeLoader } from "./load.js"

export class StoreNotFresh extends Error {
  constructor(readonly head: bigint) {
    super(`the store already holds events (head position ${head}); a log is replayed only into an empty store`)
  }
}

export class HeaderRefused extends Error {}

export interface LoadResult {
  readonly header: LogHeader
  readonly events: number
}

/**
 * Checks and appends the lines in order; throws LogRejected (with the line) or StoreNotFresh. With `checkFirst`
 * every line is checked before anything is written (the lines must then be an array, read twice).
 */
export const loadLog = async (
  lines: Iterable<string> | AsyncIterable<string>,
  store: EventStoreShape,
  options: {
    readonly checkFirst?: boolean
    readonly onAppended?: (count: number) => void
    /** Refuses a header (e.g. a seed other than the simulator's): the reason, or undefined to go on. */
    readonly acceptHeader?: (header: LogHeader) => string | undefined
  } = {},
): Promise<LoadResult> => {
  const head = await Effect.runPromise(store.headPosition)
  if (head >= 0n) throw new StoreNotFresh(head)
  if (options.checkFirst) {
    if (!Array.isArray(lines)) throw new TypeError("checkFirst needs the lines as an array")
    const dry = new LogReader()
    for (const text of lines as ReadonlyArray<string>) {
      const r = dry.read(text)
      if (Result.isFailure(r)) throw r.failure
    }
    const end = dry.finish()
    if (Result.isFailure(end)) throw end.failure
  }
  let accepted = false
  const reader = new LogReader()
  const loader = makeLoader(store, options.onAppended)
  for await (const text of lines) {
    const r = reader.read(text)
    if (Result.isFailure(r)) throw r.failure
    if (!accepted && reader.header !== undefined) {
      const refusal = options.acceptHeader?.(reader.header)
      if (refusal !== undefined) throw new HeaderRefused(refusal)
      accepted = true
    }
    if (r.success !== undefined) await loader.add(r.success)
  }
  const header = reader.finish()
  if (Result.isFailure(header)) throw header.failure
  return { header: header.success, events: await loader.flush() }
}

/** A simulator over a replayed store: every read model rebuilt from the log, its clock at the log's last time. */
export const openReplayed = (store: EventStoreShape & { close?: () => void | Promise<void> }, seed: string | null): Promise<Simulator> =>
  createSimulator({ store, ...(seed !== null ? { seed } : {}), clock: { frozenAt: 0 }, defaultWorkspace: false })

export { LogRejected }
