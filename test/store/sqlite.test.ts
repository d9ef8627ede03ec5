// The SQLite adapter against the conformance suite (a fresh file per test), plus its file ownership and layer.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { EventStore, type NewEvent } from "../../src/store/event-store.js"
import { layerSqlite, makeSqliteStore } from "../../src/store/sqlite.js"
import { describeEventStoreConformance } from "./conformance.js"

const onFreshFile = (durability: "normal" | "full") => async () => {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-sqlite-"))
  const store = makeSqliteStore({ file: join(dir, "events.db"), durability })
  return {
    store,
    close: async () => {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

describeEventStoreConformance("sqlite", onFreshFile("normal"), { freshStore: true, truncates: true })
describeEventStoreConformance("sqlite (durability full)", onFreshFile("full"), { freshStore: true, truncates: true })

describe("sqlite file", () => {
  const dirs: Array<string> = []
  const freshFile = () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-sqlite-"))
    dirs.push(dir)
    return join(dir, "nested", "events.db")
  }
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const event: NewEvent = {
    id: "2d0c0c8e-7c1a-4a59-9a43-6a4c3c1e2f10",
    type: "T",
    data: { ok: true },
    metadata: { at: 0, schemaVersion: 1 },
  }

  it("is refused to a second store while the first one has it open", () => {
    const file = freshFile()
    const owner = makeSqliteStore({ file })
    try {
      expect(() => makeSqliteStore({ file })).toThrow(/locked/)
    } finally {
      owner.close()
    }
    const next = makeSqliteStore({ file })
    next.close()
  })

  it("layerSqlite opens the file (creating its directory) and closes it when the scope ends", async () => {
    const file = freshFile()
    const program = Effect.gen(function* () {
      const store = yield* EventStore
      return yield* store.append("layerTest-1", [event], "any")
    })
    const result = await Effect.runPromise(program.pipe(Effect.provide(layerSqlite({ file }))))
    const again = await Effect.runPromise(program.pipe(Effect.provide(layerSqlite({ file }))))
    expect(again).toEqual(result)
    const reopened = makeSqliteStore({ file })
    const log = await Effect.runPromise(reopened.readAll())
    reopened.close()
    expect(log.map((e) => e.id)).toEqual([event.id])
  })

  it("layerSqlite fails with StoreUnavailable when the file is held by another store", async () => {
    const file = freshFile()
    const owner = makeSqliteStore({ file })
    try {
      const error = await Effect.runPromise(
        Effect.flip(
          Effect.provide(
            EventStore.useSync((store) => store.kind),
            layerSqlite({ file }),
          ),
        ),
      )
      expect(error).toMatchObject({ _tag: "StoreUnavailable" })
    } finally {
      owner.close()
    }
  })
})
