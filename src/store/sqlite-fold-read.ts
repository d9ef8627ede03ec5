// What the read models' pull reads of the SQLite file (ReadAllOptions.forFolding): of each event what every fold
// reads, and the rest when a fold first asks for it.
import type Database from "better-sqlite3"
import type { EventMetadata, JsonValue, RecordedEvent, StreamName } from "./event-store.js"

/**
 * A row of the page's read is one text: position, metadata, data and type joined by U+001E (record separator). The
 * data and metadata are JSON written by JSON.stringify, which escapes every control character, so neither holds one;
 * the type comes last and may hold anything. One string per row instead of four values in a row array made the
 * pull's CPU 6% smaller (scratch, 1,000,000 events, pages interleaved with the previous read).
 */
const SEPARATOR = "\x1e"
type NamesRow = [position: number, type: string, stream: string, id: string, revision: number]

/**
 * One page of a pull. Every fold reads an event's position, type and metadata; the data only some folds read (a
 * notification's only the webhook outbox, and only while a webhook is operational), and the stream, id and revision
 * hardly any (the outbox a notification's id, the runner the stream of an event it cannot apply). Each column read
 * costs about as much whether it is used or not (a string made for it), so the page reads the first four (as one
 * text, above) and parses the data when a fold first reads it; the stream, id and revision of the whole page are read
 * in one query when one of them is first asked for. The page is folded right after it is read and then dropped: its
 * events are not kept (their type and data text are slices of the row's text), posted to another thread or
 * serialised (the store's other reads hand out plain objects for that).
 */
class Page {
  readonly events: Array<FoldedEvent> = []
  constructor(private readonly names: Database.Statement<[number, number], NamesRow>) {}

  /** Reads the stream, id and revision of every event of the page; the rows must be the ones the page read. */
  fill(): void {
    const events = this.events
    const rows = this.names.all(Number(events[0]!.position), Number(events[events.length - 1]!.position))
    if (rows.length !== events.length || rows.some((row, i) => row[0] !== Number(events[i]!.position) || row[1] !== events[i]!.type))
      throw new Error("sqlite: the log changed under a page of the read models' pull")
    for (let i = 0; i < rows.length; i++) events[i]!.named(rows[i]!)
  }
}

class FoldedEvent implements RecordedEvent {
  readonly position: bigint
  readonly type: string
  readonly metadata: EventMetadata
  private text: string | undefined
  private parsed: JsonValue = null
  private names: NamesRow | undefined = undefined

  constructor(
    private readonly page: Page,
    row: string,
  ) {
    const a = row.indexOf(SEPARATOR)
    const b = row.indexOf(SEPARATOR, a + 1)
    const c = row.indexOf(SEPARATOR, b + 1)
    this.position = BigInt(row.slice(0, a))
    this.metadata = JSON.parse(row.slice(a + 1, b)) as EventMetadata
    this.text = row.slice(b + 1, c)
    this.type = row.slice(c + 1)
  }

  /** Parsed when first read, once; the text is dropped then. */
  get data(): JsonValue {
    if (this.text !== undefined) {
      this.parsed = JSON.parse(this.text) as JsonValue
      this.text = undefined
    }
    return this.parsed
  }

  get stream(): StreamName {
    return this.named()[2]
  }

  get id(): string {
    return this.named()[3]
  }

  get revision(): bigint {
    return BigInt(this.named()[4])
  }

  /** The page's second read hands each event its row; asked by a getter, reads the page's rows first. */
  named(row?: NamesRow): NamesRow {
    if (row !== undefined) this.names = row
    else if (this.names === undefined) this.page.fill()
    return this.names!
  }
}

/** Reads pages for folding: up to `max` events (negative: no limit) from position `from` to `head`, in order. */
export const makeFoldRead = (db: Database.Database) => {
  const rows = db
    .prepare<[number, number, number], string>(
      "SELECT concat_ws(char(30), position, metadata, data, type) FROM events WHERE position >= ? AND position <= ? ORDER BY position LIMIT ?",
    )
    .pluck()
  const names = db
    .prepare<[number, number], NamesRow>(
      "SELECT position, type, stream, id, revision FROM events WHERE position >= ? AND position <= ? ORDER BY position",
    )
    .raw()
  return (from: number, head: number, max: number): ReadonlyArray<RecordedEvent> => {
    const page = new Page(names)
    for (const row of rows.all(from, head, max)) page.events.push(new FoldedEvent(page, row))
    return page.events
  }
}
