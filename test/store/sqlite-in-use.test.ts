// A SQLite log another owner holds is refused at once: no 5 s lock wait on each statement of the opening (it took
// 6.7–7.5 s to refuse a data dir in use). The bound only catches the old waits; the refusal itself takes ~100 ms.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { makeSqliteStore } from "../../src/store/sqlite.js"

const dir = mkdtempSync(join(tmpdir(), "custody-sqlite-in-use-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it("a second opening of a log in use fails as locked within a second, and the owner keeps it", async () => {
  const file = join(dir, "events.sqlite")
  const owner = makeSqliteStore({ file })
  try {
    const started = performance.now()
    expect(() => makeSqliteStore({ file })).toThrow(/database is locked|SQLITE_BUSY/i)
    expect(performance.now() - started).toBeLessThan(1000)
  } finally {
    await owner.close?.()
  }
  // Once the owner has closed it, it opens.
  const next = makeSqliteStore({ file })
  await next.close?.()
})
