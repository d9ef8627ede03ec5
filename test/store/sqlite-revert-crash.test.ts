// A process killed with SIGKILL while it reverts a SQLite world leaves the world before the revert or the one
// after it, never a mix: reopened, the log is exactly one of the two and the digest is that world's.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { afterEach, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"

interface World {
  readonly digest: string
  readonly head: string
}

const child = fileURLToPath(new URL("../support/sqlite-revert-child.ts", import.meta.url))
const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * Runs the child until it announces revert number `round`, waits `delayMs`, and kills it with SIGKILL. Earlier
 * reverts are let go on (a line on the child's stdin); the one killed is not, so the kill lands in it or after it.
 */
const killDuringRevert = (file: string, round: number, delayMs: number) =>
  new Promise<{ a: World; b: World }>((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, file], { stdio: ["pipe", "pipe", "pipe"] })
    let worlds: { a: World; b: World } | undefined
    let buffered = ""
    let stderr = ""
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk
      const lines = buffered.split("\n")
      buffered = lines.pop()!
      for (const line of lines) {
        const message = JSON.parse(line) as { a?: World; b?: World; reverting?: number; reverted?: number }
        if (message.a !== undefined) worlds = message as { a: World; b: World }
        if (message.reverting === round) setTimeout(() => proc.kill("SIGKILL"), delayMs)
        if (message.reverted !== undefined && message.reverted < round) proc.stdin.write("go\n")
      }
    })
    proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    proc.stdin.on("error", () => undefined) // a write racing the kill; the exit handler decides
    proc.on("error", reject)
    proc.on("exit", (code, signal) =>
      signal === "SIGKILL" && worlds !== undefined ? resolve(worlds) : reject(new Error(`child exited (${code}): ${stderr}`)),
    )
  })

it.each([
  [1, 0],
  [2, 3],
])(
  "killed at revert %i (+%i ms), the reopened world is the one before or after the revert",
  { timeout: 120_000 },
  async (round, delayMs) => {
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-revert-crash-"))
    dirs.push(dir)
    const file = join(dir, "events.db")
    const { a, b } = await killDuringRevert(file, round, delayMs)
    expect(a.digest).not.toBe(b.digest)
    const sim = await createSimulator({
      store: makeSqliteStore({ file }),
      seed: "revert-crash",
      clock: { frozenAt: Date.UTC(2026, 0, 1) },
      webhooks: false,
    })
    try {
      const reopened: World = { digest: await digestOf(sim, undefined), head: String(sim.models.position) }
      const log = await Effect.runPromise(sim.store.readAll())
      expect(log.at(-1)?.position).toBe(BigInt(reopened.head))
      expect([a, b]).toContainEqual(reopened)
    } finally {
      await sim.close()
    }
  },
)
