// Durability of the SQLite adapter: a writer killed with SIGKILL loses no acknowledged append; a clean close loses nothing.
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { NewEvent, RecordedEvent } from "../../src/store/event-store.js"
import { WrongExpectedVersion } from "../../src/store/event-store.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"

interface Ack {
  readonly stream: string
  readonly lastRevision: string
  readonly position: string
  readonly events: ReadonlyArray<NewEvent>
}

const writer = fileURLToPath(new URL("../support/sqlite-crash-writer.ts", import.meta.url))
const dirs: Array<string> = []
const freshFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-crash-"))
  dirs.push(dir)
  return join(dir, "events.db")
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Runs the writer until it has acknowledged `acks` appends, then kills it with SIGKILL mid-stream. */
const writeThenKill = (file: string, durability: "normal" | "full", acks: number) =>
  new Promise<Array<Ack>>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", writer, file, durability], { stdio: ["ignore", "pipe", "pipe"] })
    let buffered = ""
    let stderr = ""
    const lines: Array<string> = []
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk
      const complete = buffered.split("\n")
      buffered = complete.pop()!
      lines.push(...complete)
      if (lines.length >= acks && child.exitCode === null && !child.killed) child.kill("SIGKILL")
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("exit", (code, signal) =>
      signal === "SIGKILL"
        ? resolve(lines.map((line) => JSON.parse(line) as Ack))
        : reject(new Error(`writer exited (${code}): ${stderr}`)),
    )
  })

const readEverything = (file: string): ReadonlyArray<RecordedEvent> => {
  const store = makeSqliteStore({ file })
  try {
    return Effect.runSync(store.readAll())
  } finally {
    store.close()
  }
}

const expectConsistentLog = (log: ReadonlyArray<RecordedEvent>) => {
  const nextRevision = new Map<string, bigint>()
  for (let i = 0; i < log.length; i++) {
    const event = log[i]!
    if (i > 0) expect(event.position).toBeGreaterThan(log[i - 1]!.position)
    expect(event.revision).toBe(nextRevision.get(event.stream) ?? 0n)
    nextRevision.set(event.stream, event.revision + 1n)
  }
}

const expectEveryAckStored = (acks: ReadonlyArray<Ack>, log: ReadonlyArray<RecordedEvent>) => {
  const byId = new Map(log.map((event) => [event.id, event]))
  for (const ack of acks) {
    const first = BigInt(ack.lastRevision) - BigInt(ack.events.length) + 1n
    ack.events.forEach((event, i) => {
      expect(byId.get(event.id)).toEqual({ ...event, stream: ack.stream, revision: first + BigInt(i), position: expect.any(BigInt) })
    })
    expect(byId.get(ack.events[ack.events.length - 1]!.id)?.position).toBe(BigInt(ack.position))
  }
}

describe("sqlite durability", () => {
  it.each([
    ["normal", 400],
    ["full", 60],
  ] as const)(
    "with durability %s, every append acknowledged before a SIGKILL is there, intact, after reopening",
    async (durability, acks) => {
      const file = freshFile()
      const acknowledged = await writeThenKill(file, durability, acks)
      expect(acknowledged.length).toBeGreaterThanOrEqual(acks)
      const log = readEverything(file)
      expectConsistentLog(log)
      expectEveryAckStored(acknowledged, log)
    },
  )

  it("a clean close keeps every event, and appends after reopening continue each stream and the log", async () => {
    const file = freshFile()
    const event = (n: number): NewEvent => ({
      id: randomUUID(),
      type: "Reopened",
      data: { n, ü: [n] },
      metadata: { at: n, schemaVersion: 1 },
    })
    const first = makeSqliteStore({ file })
    await Effect.runPromise(first.append("reopen-a", [event(1), event(2)], "no_stream"))
    const last = await Effect.runPromise(first.append("reopen-b", [event(3)], "no_stream"))
    const before = await Effect.runPromise(first.readAll())
    first.close()

    const second = makeSqliteStore({ file })
    try {
      const after = await Effect.runPromise(second.readAll())
      const head = await Effect.runPromise(second.headPosition)
      const stale = await Effect.runPromise(Effect.flip(second.append("reopen-a", [event(4)], "no_stream")))
      const next = await Effect.runPromise(second.append("reopen-a", [event(5)], 1n))
      const repeat = await Effect.runPromise(second.append("reopen-a", [before[0]!, before[1]!], "any"))
      expect(after).toEqual(before)
      expect(head).toBe(last.position)
      expect(stale).toBeInstanceOf(WrongExpectedVersion)
      expect(stale).toMatchObject({ actual: 1n })
      expect(next.nextExpectedRevision).toBe(2n)
      expect(next.position).toBeGreaterThan(last.position)
      expect(repeat).toEqual({ nextExpectedRevision: 1n, position: before[1]!.position })
    } finally {
      second.close()
    }
    expectConsistentLog(readEverything(file))
  })
})
