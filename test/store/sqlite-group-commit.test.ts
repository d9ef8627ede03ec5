// Group commit in the SQLite adapter: the appends of one event-loop turn share one transaction, each acknowledged only
// once it is committed; a batch that fails fails only the appends in it.
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Cause, Effect, Exit } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { JsonValue, NewEvent } from "../../src/store/event-store.js"
import { makeSqliteStore, type SqliteStore } from "../../src/store/sqlite.js"

const event = (data: JsonValue = { n: 1 }): NewEvent => ({
  id: randomUUID(),
  type: "GroupCommitTested",
  data,
  metadata: { at: 0, schemaVersion: 1 },
})

describe("sqlite group commit", () => {
  const dirs: Array<string> = []
  const stores: Array<SqliteStore> = []
  const open = (file = join(mkdtempSync(join(tmpdir(), "custody-sim-group-")), "events.db")) => {
    dirs.push(file.slice(0, file.lastIndexOf("/")))
    const store = makeSqliteStore({ file })
    stores.push(store)
    return { store, file }
  }
  afterEach(() => {
    for (const s of stores.splice(0)) {
      try {
        s.close()
      } catch {
        // closed by the test
      }
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it("acknowledges every append of a turn, in order, only once committed; all of them are in the file", async () => {
    for (const durability of ["normal", "full"] as const) {
      const dir = mkdtempSync(join(tmpdir(), "custody-sim-group-"))
      dirs.push(dir)
      const file = join(dir, "events.db")
      const store = makeSqliteStore({ file, durability })
      // Twenty appends started in one turn: ten on one stream (each at the revision the previous one leaves), ten on
      // streams of their own.
      const appends = Array.from({ length: 20 }, (_, i) =>
        Effect.runPromise(
          i % 2 === 0
            ? store.append("groupOne-1", [event({ i })], i === 0 ? "no_stream" : BigInt(i / 2 - 1))
            : store.append(`groupMany-${i}`, [event({ i }), event({ i })], "no_stream"),
        ),
      )
      // Not committed yet: nobody reads them.
      expect(await Effect.runPromise(store.headPosition)).toBe(-1n)
      const results = await Promise.all(appends)
      const positions = results.map((r) => r.position)
      expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions)
      expect(results.filter((_, i) => i % 2 === 0).map((r) => r.nextExpectedRevision)).toEqual(
        Array.from({ length: 10 }, (_, i) => BigInt(i)),
      )
      expect(await Effect.runPromise(store.headPosition)).toBe(positions[19])
      store.close()
      const reopened = makeSqliteStore({ file, durability })
      const log = await Effect.runPromise(reopened.readAll())
      reopened.close()
      expect(log).toHaveLength(30)
      expect(log.map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? [i] : [i, i])).flat())
    }
  })

  it("checks an append against the turn's earlier appends on its stream: on top of them it is written, beside them refused", async () => {
    const { store } = open()
    const first = Effect.runPromiseExit(store.append("groupSeen-1", [event()], "no_stream"))
    const onTop = Effect.runPromiseExit(store.append("groupSeen-1", [event()], 0n))
    const beside = Effect.runPromiseExit(store.append("groupSeen-1", [event()], "no_stream"))
    const [f, o, s] = await Promise.all([first, onTop, beside])
    expect(Exit.isSuccess(f) && Exit.isSuccess(o) && o.value.nextExpectedRevision).toBe(1n)
    expect(Exit.isFailure(s) && Cause.squash(s.cause)).toMatchObject({ _tag: "WrongExpectedVersion", actual: 1n })
    expect(await Effect.runPromise(store.readAll())).toHaveLength(2)
  })

  it("fails only the appends of a batch that fails: the batch before and the one after are written", async () => {
    const { store, file } = open()
    const before = await Effect.runPromise(store.append("groupFail-a", [event({ batch: 1 })], "no_stream"))
    // One turn: a good append, one decided on it, one the table refuses (data NULL), then one more.
    const good = Effect.runPromiseExit(store.append("groupFail-a", [event({ batch: 2 })], 0n))
    const onTop = Effect.runPromiseExit(store.append("groupFail-a", [event({ batch: 2 })], 1n))
    const bad = Effect.runPromiseExit(store.append("groupFail-b", [{ ...event(), data: undefined as unknown as JsonValue }], "no_stream"))
    const next = Effect.runPromiseExit(store.append("groupFail-c", [event({ batch: 3 })], "no_stream"))
    const [g, t, b, n] = await Promise.all([good, onTop, bad, next])
    expect(Exit.isFailure(g) && Cause.squash(g.cause)).toMatchObject({ _tag: "StoreUnavailable" })
    expect(Exit.isFailure(t) && Cause.squash(t.cause)).toMatchObject({ _tag: "StoreUnavailable" })
    expect(Exit.isFailure(b)).toBe(true)
    // The append after the failure is in a batch of its own.
    expect(Exit.isSuccess(n) && n.value.position).toBe(before.position + 1n)
    // Nothing of that batch was written: the stream is where the first batch left it, and goes on from there.
    expect((await Effect.runPromise(store.readStream("groupFail-a"))).revision).toBe(0n)
    expect((await Effect.runPromise(store.readStream("groupFail-b"))).revision).toBe("no_stream")
    const after = await Effect.runPromise(store.append("groupFail-a", [event({ batch: 4 })], 0n))
    expect(after).toEqual({ nextExpectedRevision: 1n, position: before.position + 2n })
    store.close()
    const reopened = makeSqliteStore({ file })
    stores.push(reopened)
    expect((await Effect.runPromise(reopened.readAll())).map((e) => e.data)).toEqual([{ batch: 1 }, { batch: 3 }, { batch: 4 }])
  })

  it("acknowledges a repeat of an append still in the open batch only with that batch", async () => {
    const { store } = open()
    const e = event()
    const first = Effect.runPromise(store.append("groupRepeat-1", [e], "any"))
    const repeat = Effect.runPromise(store.append("groupRepeat-1", [e], "any"))
    const [a, b] = await Promise.all([first, repeat])
    expect(b).toEqual(a)
    expect(await Effect.runPromise(store.readAll())).toHaveLength(1)
  })

  it("commits the open batch before a truncation and before closing", async () => {
    const { store, file } = open()
    const kept = await Effect.runPromise(store.append("groupCut-1", [event({ n: 0 })], "no_stream"))
    const pending = Effect.runPromise(store.append("groupCut-1", [event({ n: 1 })], 0n))
    await Effect.runPromise(store.truncateAfter!(kept.position))
    expect((await pending).position).toBe(kept.position + 1n)
    expect((await Effect.runPromise(store.readAll())).map((e) => e.data)).toEqual([{ n: 0 }])
    const last = Effect.runPromise(store.append("groupCut-1", [event({ n: 2 })], 0n))
    store.close()
    await last
    const reopened = makeSqliteStore({ file })
    stores.push(reopened)
    expect((await Effect.runPromise(reopened.readAll())).map((e) => e.data)).toEqual([{ n: 0 }, { n: 2 }])
  })
})
