// `custody-sim export` leaves the secrets and the seed out by default; --include-secrets writes the full copy;
// `custody-sim replay --secrets` gives the keys the secrets supplied (fresh ones otherwise) with the same digest.
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { digestOf } from "../../src/api/digest/digest.js"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { CLI } from "../support/cli-command.js"
import { T0 } from "../support/harness.js"

const cli = (args: ReadonlyArray<string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args], { cwd: process.cwd(), maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
    )
  })
// A hang guard, not a speed check: each case starts node with tsx, which takes tens of seconds on a loaded machine.
const CLI_TIMEOUT_MS = 240_000

let dir: string
/** What the full copy holds (each key's secret, salt and hash; the seed), and what no export holds (clear passphrases, the admin token). */
let inLog: Array<string>
let never: Array<string>
let key: { key: string; secret: string; passphrase: string }
let digest: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "custody-sim-export-secrets-"))
  const sim = await createSimulator({
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: "export-secrets",
    clock: { frozenAt: T0 },
    fixture: {
      apiKeys: [
        { name: "one", apiVersion: "2024-05-09" },
        { name: "two", apiVersion: "2024-05-09", secret: Buffer.from("chosen secret bytes").toString("base64"), passphrase: "chosen" },
      ],
    },
    webhooks: false,
  })
  try {
    key = sim.createdCredentials[0]!
    const grants = [...sim.models.workspace.apiKeys.values()].map((k) => k.grant)
    inLog = [...grants.flatMap((g) => [g.secret, g.passphraseSalt, g.passphraseHash]), '"export-secrets"']
    never = [...sim.createdCredentials.map((c) => c.passphrase), sim.adminToken]
    digest = await digestOf(sim, undefined)
  } finally {
    await sim.close()
  }
}, CLI_TIMEOUT_MS)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("custody-sim export", () => {
  it(
    "without secrets by default; --include-secrets holds every one; replay --secrets gives a key the secrets supplied",
    async () => {
      const [plain, full] = await Promise.all([
        cli(["export", "--data-dir", dir]),
        cli(["export", "--data-dir", dir, "--include-secrets", "--seed", "export-secrets"]),
      ])
      expect([plain.code, plain.stderr, full.code, full.stderr]).toEqual([0, "", 0, ""])
      for (const s of [...inLog, ...never]) expect([s, plain.stdout.includes(s)]).toEqual([s, false])
      for (const s of inLog) expect([s, full.stdout.includes(s)]).toEqual([s, true])
      for (const s of never) expect([s, full.stdout.includes(s)]).toEqual([s, false])
      expect(JSON.parse(full.stdout.split("\n")[0]!).seed).toBe("export-secrets")

      const file = join(dir, "plain.jsonl")
      writeFileSync(file, plain.stdout)
      const supplied = join(dir, "secrets.json")
      const mine = { secret: Buffer.from("a secret I keep for this key").toString("base64"), passphrase: "my passphrase" }
      writeFileSync(supplied, JSON.stringify({ apiKeys: { [key.key]: mine } }))
      const replayed = await cli(["replay", file, "--secrets", supplied, "--json"])
      expect([replayed.code, replayed.stderr]).toEqual([0, ""])
      const out = JSON.parse(replayed.stdout)
      expect(out.digest).toBe(`sha256:${digest}`)
      expect(out.filled.apiKeys).toHaveLength(2)
      expect(out.filled.apiKeys).toContainEqual({ key: key.key, ...mine })
      expect(out.filled.apiKeys.find((k: { key: string }) => k.key !== key.key).secret).not.toBe(
        Buffer.from("chosen secret bytes").toString("base64"),
      )

      writeFileSync(supplied, JSON.stringify({ apiKeys: { [key.key]: { secret: "not base64!" } } }))
      const bad = await cli(["replay", file, "--secrets", supplied])
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain("secret must be Base64")
      expect(readFileSync(file, "utf8")).toBe(plain.stdout)
    },
    CLI_TIMEOUT_MS * 2,
  )
})
