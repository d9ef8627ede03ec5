// SQLite adapter (better-sqlite3, WAL): the default durable store; one process owns the file (sqlite-file.ts).
import type Database from "better-sqlite3"
import { Effect, Layer } from "effect"
import { catchUpThenLive, makeAppendSignal } from "./catch-up.js"
import { checkCommit, type StreamIds } from "./commit-check.js"
import { makeFoldRead } from "./sqlite-fold-read.js"
import { attempt, failed, limit, open, unavailable, type LogRow, type SqliteStoreOptions, type StreamRow } from "./sqlite-file.js"
import {
  EventStore,
  type StoreUnavailable,
  WrongExpectedVersion,
  type AppendOptions,
  type AppendResult,
  type EventMetadata,
  type EventStoreShape,
  type ExpectedRevision,
  type JsonValue,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamName,
  type TruncateOptions,
} from "./event-store.js"

export type SqliteStore = EventStoreShape & { readonly close: () => void }

const streamColumns = "position, revision, id, type, data, metadata"

const statements = (db: Database.Database) => ({
  begin: db.prepare("BEGIN"),
  commit: db.prepare("COMMIT"),
  rollback: db.prepare("ROLLBACK"),
  insert: db.prepare("INSERT INTO events (stream, revision, id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)"),
  head: db.prepare<[], number | null>("SELECT max(position) FROM events").pluck(),
  lastRevision: db.prepare<[string], number | null>("SELECT max(revision) FROM events WHERE stream = ?").pluck(),
  positionAt: db.prepare<[string, number], number>("SELECT position FROM events WHERE stream = ? AND revision = ?").pluck(),
  idsAfter: db
    .prepare<[string, number, number], string>("SELECT id FROM events WHERE stream = ? AND revision > ? ORDER BY revision LIMIT ?")
    .pluck(),
  idsOf: db.prepare<[string], [string, number]>("SELECT id, revision FROM events WHERE stream = ? ORDER BY revision").raw(),
  forwards: db
    .prepare<[string, number, number], StreamRow>(
      `SELECT ${streamColumns} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    )
    .raw(),
  backwards: db
    .prepare<[string, number, number], StreamRow>(
      `SELECT ${streamColumns} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    )
    .raw(),
  truncate: db.prepare<[number]>("DELETE FROM events WHERE position > ?"),
  // A mark outlives every truncation: the epoch a revert starts (event-store.ts's truncateAfter).
  markOf: db.prepare<[string], number | null>("SELECT value FROM marks WHERE name = ?").pluck(),
  setMark: db.prepare<[string, number]>(
    "INSERT INTO marks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
  ),
  // Bounded by the committed head: this connection also sees the rows of a batch not yet committed.
  fromPosition: db
    .prepare<[number, number, number], LogRow>(
      "SELECT position, stream, revision, id, type, data, metadata FROM events WHERE position >= ? AND position <= ? ORDER BY position LIMIT ?",
    )
    .raw(),
})

const noStream: ReadStreamResult = { events: [], revision: "no_stream" }

/** Rows kept in memory after they are written (at least this many, at most twice as many). */
const TAIL = 1_024

/**
 * The store over one file. Over 100 lines because it is one closure over the connection's state, which the store's
 * operations share: the group commit's open batch, the head, the tail and the cached streams. Each operation and
 * each step of the group commit is a named function of its own within it, a few lines each.
 */
export const makeSqliteStore = (options: SqliteStoreOptions): SqliteStore => {
  const db = open(options)
  const sql = statements(db)
  const foldRead = makeFoldRead(db)
  let head = sql.head.get() ?? -1
  const signal = makeAppendSignal(() => BigInt(head))

  // The file has one owner (this process), so a stream's last revision is looked up once, then kept here.
  class CachedStream implements StreamIds {
    ids: Map<string, number> | undefined = undefined
    constructor(
      readonly name: string,
      public revision: number,
    ) {}
    idsAfter(revision: number, count: number): ReadonlyArray<string> {
      return sql.idsAfter.all(this.name, revision, count)
    }
    // Only appends with any/stream_exists ask, so only their streams pay for an id map.
    revisionOf(id: string): number | undefined {
      if (this.ids === undefined) {
        this.ids = new Map()
        for (const [eventId, revision] of sql.idsOf.iterate(this.name)) if (!this.ids.has(eventId)) this.ids.set(eventId, revision)
      }
      return this.ids.get(id)
    }
  }
  const streams = new Map<StreamName, CachedStream>()
  const cached = (name: StreamName): CachedStream => {
    let stream = streams.get(name)
    if (stream === undefined) {
      stream = new CachedStream(name, sql.lastRevision.get(name) ?? -1)
      streams.set(name, stream)
    }
    return stream
  }

  /**
   * The last events committed, contiguous in position and ending at the head, as the appends handed them in: the
   * read models pull each append right after it, and a SELECT of it cost about as much as the append itself, as did
   * parsing back the JSON just written (the memory store hands out its appended objects the same way). `tailStart`
   * is the first one's position. Older positions are read from the file. Emptied by a truncation.
   */
  let tail: Array<RecordedEvent> = []
  let tailStart = 0

  const keepTail = (first: number, events: Array<RecordedEvent>) => {
    if (tail.length === 0 || first !== tailStart + tail.length) {
      tail = events
      tailStart = first
    } else {
      for (const event of events) tail.push(event)
      if (tail.length > 2 * TAIL) {
        tailStart += tail.length - TAIL
        tail = tail.slice(tail.length - TAIL)
      }
    }
  }

  /**
   * Group commit. The first append of an event-loop turn opens a transaction; every append of that turn inserts into
   * it at once (checked against the streams' revisions including the turn's earlier appends, which a command's
   * read of its stream on this connection sees too), and the transaction commits once the turn's I/O callbacks are
   * done (setImmediate). Each append's effect completes only after that COMMIT has returned: an acknowledged write
   * is in the WAL as before, one COMMIT (and, at "full", one fsync) per turn instead of one per append. The head, the
   * tail and the subscribers move only at COMMIT, so the read models never see an event that is not durable.
   * A batch that fails (an insert or the COMMIT) is rolled back whole and every append in it fails: they may have
   * been decided on each other's events. The streams it touched are read again from the file.
   */
  interface Batch {
    /** The batch's events in position order, from position `first`. */
    readonly events: Array<RecordedEvent>
    first: number
    readonly touched: Set<CachedStream>
    /** The appends waiting for the COMMIT, told once it returned (or the batch failed: then `failure` is set). */
    readonly waiting: Array<() => void>
    failure: StoreUnavailable | undefined
    settled: boolean
  }
  let batch: Batch | undefined
  let scheduled: ReturnType<typeof setImmediate> | undefined

  const settle = (b: Batch) => {
    b.settled = true
    for (const resume of b.waiting) resume()
  }

  /** Rolls the open batch back: nothing of it was written, its streams' revisions are read again. */
  const abort = (b: Batch, cause: unknown) => {
    batch = undefined
    b.failure = unavailable(cause)
    try {
      if (db.inTransaction) sql.rollback.run()
    } catch {
      // A failed ROLLBACK leaves SQLite to roll back at the next open; this process reads the file again below.
    }
    for (const stream of b.touched) streams.delete(stream.name)
  }

  /** Commits the open batch (if any) and completes its appends. Runs after the turn, and before a truncation or close. */
  const flush = () => {
    if (scheduled !== undefined) clearImmediate(scheduled)
    scheduled = undefined
    const b = batch
    if (b === undefined) return
    batch = undefined
    try {
      sql.commit.run()
    } catch (cause) {
      abort(b, cause)
      settle(b)
      return
    }
    if (b.events.length > 0) {
      head = b.first + b.events.length - 1
      keepTail(b.first, b.events)
      signal.notify()
    }
    settle(b)
  }

  const begin = (): Batch => {
    if (batch !== undefined) return batch
    sql.begin.run()
    batch = { events: [], first: -1, touched: new Set(), waiting: [], failure: undefined, settled: false }
    scheduled = setImmediate(flush)
    return batch
  }

  /** Completes with `result` once the batch `b` has committed, or fails with the batch's failure. */
  const afterCommit = (b: Batch, result: AppendResult): Effect.Effect<AppendResult, StoreUnavailable> =>
    Effect.callback<AppendResult, StoreUnavailable>((resume) => {
      const done = () => resume(b.failure === undefined ? Effect.succeed(result) : Effect.fail(b.failure))
      // The fiber may have yielded between the insert and here, and the batch committed meanwhile.
      if (b.settled) done()
      else b.waiting.push(done)
    })

  const write = (stream: CachedStream, events: ReadonlyArray<NewEvent>): AppendResult => {
    const b = begin()
    b.touched.add(stream)
    let revision = stream.revision
    let position = -1
    try {
      for (const event of events) {
        position = Number(
          sql.insert.run(stream.name, ++revision, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata))
            .lastInsertRowid,
        )
        if (b.first < 0) b.first = position
        b.events.push({
          id: event.id,
          type: event.type,
          data: event.data,
          metadata: event.metadata,
          stream: stream.name,
          revision: BigInt(revision),
          position: BigInt(position),
        })
      }
    } catch (cause) {
      abort(b, cause)
      settle(b)
      throw cause
    }
    const ids = stream.ids
    if (ids !== undefined) {
      for (let i = 0; i < events.length; i++) if (!ids.has(events[i]!.id)) ids.set(events[i]!.id, stream.revision + 1 + i)
    }
    stream.revision = revision
    return { nextExpectedRevision: BigInt(revision), position: BigInt(position) }
  }

  const append = (name: StreamName, events: ReadonlyArray<NewEvent>, expected: ExpectedRevision, options?: AppendOptions) =>
    Effect.suspend((): Effect.Effect<AppendResult, WrongExpectedVersion | StoreUnavailable> => {
      try {
        const stream = cached(name)
        const verdict = checkCommit(stream.revision, expected, events, stream)
        if (verdict === "mismatch") {
          const actual = stream.revision < 0 ? ("no_stream" as const) : BigInt(stream.revision)
          return Effect.fail(new WrongExpectedVersion({ stream: name, expected, actual }))
        }
        if (verdict === "write") {
          if (events.length === 0) return Effect.succeed({ nextExpectedRevision: BigInt(stream.revision), position: -1n })
          const result = write(stream, events)
          options?.accepted?.(result)
          return afterCommit(batch!, result)
        }
        // A repeat: of events already committed, or of ones in the open batch (acknowledged once it commits).
        const repeat = { nextExpectedRevision: BigInt(verdict), position: BigInt(sql.positionAt.get(name, verdict)!) }
        return batch === undefined ? Effect.succeed(repeat) : afterCommit(batch, repeat)
      } catch (cause) {
        return failed(cause)
      }
    })

  const toEvent = (stream: StreamName, row: StreamRow): RecordedEvent => ({
    id: row[2],
    type: row[3],
    data: JSON.parse(row[4]) as JsonValue,
    metadata: JSON.parse(row[5]) as EventMetadata,
    stream,
    revision: BigInt(row[1]),
    position: BigInt(row[0]),
  })

  const readStream = (name: StreamName, options?: ReadStreamOptions) =>
    attempt((): ReadStreamResult => {
      const last = cached(name).revision
      if (last < 0) return noStream
      // Nothing beyond the last revision (the usual read of a command's cached state): no query.
      if (options?.direction !== "backwards" && options?.fromRevision !== undefined && options.fromRevision > BigInt(last))
        return { events: [], revision: BigInt(last) }
      const maxCount = limit(options?.maxCount)
      const rows =
        options?.direction === "backwards"
          ? sql.backwards.all(name, options.fromRevision === undefined ? last : Number(options.fromRevision), maxCount)
          : sql.forwards.all(name, Number(options?.fromRevision ?? 0n), maxCount)
      return { events: rows.map((row) => toEvent(name, row)), revision: BigInt(last) }
    })

  const fromRow = (row: LogRow): RecordedEvent => ({
    id: row[3],
    type: row[4],
    data: JSON.parse(row[5]) as JsonValue,
    metadata: JSON.parse(row[6]) as EventMetadata,
    stream: row[1],
    revision: BigInt(row[2]),
    position: BigInt(row[0]),
  })

  const readAll = (options?: ReadAllOptions) =>
    attempt((): ReadonlyArray<RecordedEvent> => {
      const from = Number(options?.fromPosition ?? 0n)
      const max = limit(options?.maxCount)
      if (tail.length > 0 && from >= tailStart) {
        const start = from - tailStart
        return max < 0 ? tail.slice(start) : tail.slice(start, start + max)
      }
      if (from > head) return []
      return options?.forFolding === true ? foldRead(from, head, max) : sql.fromPosition.all(from, head, max).map(fromRow)
    })

  // One transaction: a process killed during it leaves the whole log or the shortened one with its epoch.
  const truncateAfter = (position: bigint, options?: TruncateOptions) =>
    attempt(() => {
      flush()
      try {
        sql.begin.run()
        try {
          sql.truncate.run(Number(position))
          if (options?.epoch !== undefined) sql.setMark.run("epoch", options.epoch)
          sql.commit.run()
        } catch (e) {
          if (db.inTransaction) sql.rollback.run()
          throw e
        }
      } finally {
        streams.clear()
        tail = []
        tailStart = 0
        head = sql.head.get() ?? -1
        signal.notify()
      }
    })

  return {
    kind: "sqlite",
    truncateAfter,
    epoch: attempt(() => sql.markOf.get("epoch") ?? 0),
    append,
    readStream,
    readAll,
    subscribeAll: (options) =>
      catchUpThenLive((after, maxCount) => readAll({ fromPosition: after + 1n, maxCount }), signal, options?.afterPosition ?? -1n),
    headPosition: Effect.sync(() => BigInt(head)),
    close: () => {
      flush()
      db.close()
    },
  }
}

export const layerSqlite = (options: SqliteStoreOptions): Layer.Layer<EventStore, StoreUnavailable> =>
  Layer.effect(
    EventStore,
    Effect.acquireRelease(Effect.try({ try: () => makeSqliteStore(options), catch: unavailable }), (store) =>
      Effect.sync(() => store.close()),
    ),
  )
