// custody-sim export / replay / audit as processes: digests, exit codes, the HTML report, refusals.
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
import { CLI } from "../support/cli-command.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile, writeFile } from "../support/log-file.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { shownDigest } from "../../src/audit/digest-format.js"

const cli = (args: ReadonlyArray<string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args], { cwd: process.cwd(), maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
    )
  })

// A hang guard, not a speed check: each case starts node with tsx, which takes tens of seconds on a loaded 2-core machine.
const CLI_TIMEOUT_MS = 180_000

let h: Harness
let dir: string
let file: string
let text: string
beforeAll(async () => {
  h = await startHarness({ fixture: scenarioFixture })
  await runScenario(h)
  text = await exportText(h)
  dir = mkdtempSync(join(tmpdir(), "custody-sim-cli-"))
  file = join(dir, "scenario.jsonl")
  writeFileSync(file, text)
})
afterAll(async () => {
  await h?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("custody-sim replay", () => {
  it(
    "rebuilds the read models in memory and prints the original's digest",
    async () => {
      const r = await cli(["replay", file, "--json"])
      expect([r.code, r.stderr]).toEqual([0, ""])
      expect(JSON.parse(r.stdout)).toMatchObject({
        events: parseFile(text).events.length,
        store: "memory",
        seed: "harness",
        digest: shownDigest(await digestOf(h.sim, undefined)),
      })
    },
    CLI_TIMEOUT_MS,
  )
  it(
    "into a data directory: the same digest; export from it gives back the events; a second replay there is refused",
    async () => {
      const data = join(dir, "data")
      const r = await cli(["replay", file, "--data-dir", data])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(`digest: ${shownDigest(await digestOf(h.sim, undefined))}`)
      expect(r.stdout).toContain("store: sqlite")
      const out = await cli(["export", "--data-dir", data, "--seed", "harness", "--include-secrets"])
      expect(out.code).toBe(0)
      const strip = (t: string) => parseFile(t).events.map(({ position: _p, ...e }) => e)
      expect(parseFile(out.stdout).header).toBe(parseFile(text).header)
      expect(strip(out.stdout)).toEqual(strip(text))
      const again = await cli(["replay", file, "--data-dir", data])
      expect(again.code).toBe(2)
      expect(again.stderr).toContain("already holds an event log")
      const audit = await cli(["audit", "--data-dir", data, "--as-of", "position:10"])
      expect([audit.code, audit.stdout]).toEqual([0, expect.stringMatching(/^audit as of position 10 \(time [0-9]+\): OK/)])
    },
    CLI_TIMEOUT_MS,
  )
  it(
    "refuses a bad file with file:line, and leaves no data directory log behind",
    async () => {
      const bad = join(dir, "bad.jsonl")
      const lines = text.trimEnd().split("\n")
      lines[6] = lines[6]!.replace(/"type":"[A-Za-z]+"/, '"type":"Nonsense"')
      writeFileSync(bad, lines.join("\n"))
      const data = join(dir, "bad-data")
      const r = await cli(["replay", bad, "--data-dir", data])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`${bad}:7: unknown event type "Nonsense"`)
      // The whole file is checked before the store is opened: not even the data directory is made.
      expect(existsSync(data)).toBe(false)
      expect((await cli(["replay"])).code).toBe(2)
      expect((await cli(["replay", join(dir, "missing.jsonl")])).code).toBe(2)
    },
    CLI_TIMEOUT_MS,
  )
  it(
    "a bad last line: nothing of the good lines before it is written, an existing data directory stays as it was",
    async () => {
      const bad = join(dir, "bad-last.jsonl")
      const lines = text.trimEnd().split("\n")
      lines[lines.length - 1] = lines[lines.length - 1]!.replace(/"type":"[A-Za-z]+"/, '"type":"Nonsense"')
      writeFileSync(bad, lines.join("\n"))
      const data = join(dir, "bad-last-data")
      mkdirSync(data)
      writeFileSync(join(data, "notes.txt"), "kept")
      const r = await cli(["replay", bad, "--data-dir", data])
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(`${bad}:${lines.length}: unknown event type "Nonsense"`)])
      expect(readdirSync(data)).toEqual(["notes.txt"])
    },
    CLI_TIMEOUT_MS,
  )
})

describe("custody-sim replay --until", () => {
  it(
    "loads the prefix up to the position: the original's digest as of that position; a bad position is a usage error",
    async () => {
      const until = 40
      const r = await cli(["replay", file, "--until", String(until), "--json"])
      expect([r.code, r.stderr]).toEqual([0, ""])
      expect(JSON.parse(r.stdout)).toMatchObject({
        events: until,
        position: until,
        digest: shownDigest(await digestOf(h.sim, BigInt(until))),
      })
      const bad = await cli(["replay", file, "--until", "4.5"])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain("--until must be a position")
    },
    CLI_TIMEOUT_MS,
  )
})

describe("custody-sim audit", () => {
  it(
    "of a log with an edited DepositCredited amount: exit 1, the event named, an HTML report with charts",
    async () => {
      const { header, events } = parseFile(text)
      const i = events.findIndex((e) => e.type === "DepositCredited")
      events[i] = { ...events[i]!, data: { ...events[i]!.data, amount: `${events[i]!.data.amount}0` } }
      const corrupted = join(dir, "corrupted.jsonl")
      writeFileSync(corrupted, writeFile(header, events))
      const html = join(dir, "report.html")
      const r = await cli(["audit", corrupted, "--html", html])
      expect(r.code).toBe(1)
      expect(r.stdout).toContain("1 discrepancies")
      expect(r.stdout).toContain("credit-mismatch")
      expect(r.stdout).toContain(`event ${events[i]!.id} DepositCredited at position ${i + 1}`)
      const page = readFileSync(html, "utf8")
      expect(page).toContain("credit-mismatch")
      expect(page).toMatch(
        /<div class="chart" data-chart role="img" aria-label="balance over [a-z ]+"><script type="application\/json" class="series">\{/,
      )
      expect(page).toMatch(/<script type="module">[\s\S]+<\/script>\s*<\/body>/)
      const clean = await cli(["audit", file, "--json"])
      expect(clean.code).toBe(0)
      expect(JSON.parse(clean.stdout)).toMatchObject({ ok: true, digest: { sha256: await digestOf(h.sim, undefined) } })
      expect((await cli(["audit", file, "--as-of", "position:99999"])).code).toBe(2)
    },
    CLI_TIMEOUT_MS,
  )
})
