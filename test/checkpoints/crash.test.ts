// A process killed with SIGKILL while it writes a checkpoint leaves the previous checkpoint and a temporary file
// no reader looks at: restarted, it loads the previous one, folds the tail, and every read equals a full rebuild's.
import { spawn } from "node:child_process"
import { readdirSync, rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterEach, expect, it } from "vitest"
import { listCheckpoints } from "../../src/checkpoints/directory.js"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { join } from "node:path"
import { dataDir, everyRead } from "./support.js"

const child = fileURLToPath(new URL("../support/checkpoint-crash-child.ts", import.meta.url))
const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const temporary = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".checkpoint.tmp"))

/**
 * Runs the child and kills it with SIGKILL as soon as a checkpoint's temporary file shows up after the first
 * checkpoint was saved (watching for it between announcements), or at the `maxRounds`th announced write.
 */
const killWhileWriting = (dir: string, maxRounds: number) =>
  new Promise<{ caughtWriting: boolean }>((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, dir], { stdio: ["ignore", "pipe", "pipe"] })
    let buffered = ""
    let stderr = ""
    let caughtWriting = false
    let watching: ReturnType<typeof setInterval> | undefined
    const kill = () => {
      clearInterval(watching)
      proc.kill("SIGKILL")
    }
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk
      const lines = buffered.split("\n")
      buffered = lines.pop()!
      for (const line of lines) {
        const m = JSON.parse(line) as { saving?: number; saved?: number }
        if (m.saving !== undefined && m.saving >= 2) {
          if (m.saving >= maxRounds) kill()
          clearInterval(watching)
          watching = setInterval(() => {
            if (temporary(dir).length > 0) {
              caughtWriting = true
              kill()
            }
          }, 1)
        }
      }
    })
    proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    proc.on("error", reject)
    proc.on("exit", (code, signal) => {
      clearInterval(watching)
      if (signal === "SIGKILL") resolve({ caughtWriting })
      else reject(new Error(`child exited (${code}): ${stderr}`))
    })
  })

const open = (dir: string, checkpoints: boolean, lines: Array<string>) =>
  createSimulator({
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: "checkpoint-crash",
    clock: { frozenAt: Date.UTC(2026, 0, 1) },
    defaultWorkspace: true,
    webhooks: false,
    ...(checkpoints ? { checkpoints: { dir, every: 1_000_000_000, log: (l: string) => lines.push(l) } } : {}),
  })

it("killed while writing a checkpoint, a restart loads the previous one and answers every read as a full rebuild", {
  timeout: 300_000,
}, async () => {
  const dir = dataDir()
  dirs.push(dir)
  const { caughtWriting } = await killWhileWriting(dir, 8)
  console.log(
    `killed ${caughtWriting ? "while a checkpoint's temporary file was being written" : "at the 8th announced checkpoint"}; files: ${readdirSync(dir).join(", ")}`,
  )
  expect(listCheckpoints(dir).length).toBeGreaterThan(0)
  const rebuilt = await open(dir, false, [])
  const expected = await everyRead(rebuilt)
  await rebuilt.close()
  const lines: Array<string> = []
  const restarted = await open(dir, true, lines)
  try {
    expect(lines).toEqual([])
    expect(restarted.restoredFrom).toBe(listCheckpoints(dir)[0]!.position)
    expect(await everyRead(restarted)).toEqual(expected)
  } finally {
    await restarted.close()
  }
  // The interrupted write's leftover is removed when checkpoints start again.
  expect(temporary(dir)).toEqual([])
})
