// What the read models' pull reads from a SQLite file (`forFolding`): the same events as a plain read, their data,
// stream, id and revision read when first asked for, and a page whose rows were replaced under it refused.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { NewEvent, RecordedEvent } from "../../src/store/event-store.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"

// The pull reads a row as one text joined by U+001E: events 5 and 6 hold it in their type, data and metadata.
const event = (i: number): NewEvent => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  type: i === 5 ? "Odd\u001eType\u001e" : i % 3 === 0 ? "Minted" : "Moved",
  data: i === 6 ? { "\u001e": "a\u001eb", list: ["\u001e", "é · 日本語 · 🚀"] } : { i, memo: `event ${i}`, nested: { odd: i % 2 === 1 } },
  metadata:
    i === 6 ? { at: 1_700_000_000_000 + i, schemaVersion: 1, note: "\u001e" } : { at: 1_700_000_000_000 + i, schemaVersion: 1, seq: i },
})

const plain = ({ id, type, data, metadata, stream, revision, position }: RecordedEvent) => ({
  id,
  type,
  data,
  metadata,
  stream,
  revision,
  position,
})

describe("sqlite: the read models' pull", () => {
  const dirs: Array<string> = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  /** A file holding 20 events in three streams, and a store opened afresh on it (its reads come from the file). */
  const written = async () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-sqlite-fold-"))
    dirs.push(dir)
    const file = join(dir, "events.db")
    const writer = makeSqliteStore({ file })
    for (let i = 0; i < 20; i++) await Effect.runPromise(writer.append(`s-${i % 3}`, [event(i)], "any"))
    writer.close()
    return makeSqliteStore({ file })
  }

  it("reads the events a plain read gives, page by page, each field read when first asked for", async () => {
    const store = await written()
    try {
      const all = await Effect.runPromise(store.readAll())
      const pages = [
        await Effect.runPromise(store.readAll({ maxCount: 7, forFolding: true })),
        await Effect.runPromise(store.readAll({ fromPosition: all[7]!.position, maxCount: 7, forFolding: true })),
        await Effect.runPromise(store.readAll({ fromPosition: all[14]!.position, forFolding: true })),
      ]
      expect(pages.map((p) => p.length)).toEqual([7, 7, 6])
      // The last event of a page asked first: the whole page's names are read at once, in order.
      expect(pages[1]![6]!.stream).toBe(all[13]!.stream)
      expect(pages.flat().map(plain)).toStrictEqual(all)
      expect(all[5]!.type).toBe("Odd\u001eType\u001e")
      expect(all[6]!.data).toEqual(event(6).data)
      const e = pages[0]![1]!
      expect(e.data).toBe(e.data)
    } finally {
      store.close()
    }
  })

  it("refuses to name the events of a page whose rows were replaced under it", async () => {
    const store = await written()
    try {
      const all = await Effect.runPromise(store.readAll())
      const page = await Effect.runPromise(store.readAll({ fromPosition: all[10]!.position, maxCount: 5, forFolding: true }))
      // The log cut back into the page and other events appended at the same positions.
      await Effect.runPromise(store.truncateAfter!(all[11]!.position))
      for (let i = 0; i < 3; i++) await Effect.runPromise(store.append("other-1", [{ ...event(100 + i), type: "Other" }], "any"))
      expect(() => page[4]!.id).toThrow(/changed under a page/)
      expect(page[0]!.type).toBe(all[10]!.type)
    } finally {
      store.close()
    }
  })
})
