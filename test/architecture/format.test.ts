// The formatter and the linter (biome.jsonc) hold for the whole tree: a file not formatted, or a lint error or
// warning, fails the suite. `npm run format` applies the formatter and the safe fixes.
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

const biome = (args: ReadonlyArray<string>) =>
  promisify(execFile)(join(root, "node_modules/.bin/biome"), [...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` }),
  )

it("the tree is formatted and lint-clean (npm run lint)", async () => {
  // The files git tracks, so that what another test writes into the tree meanwhile is not checked.
  const tracked = (await promisify(execFile)("git", ["ls-files"], { cwd: root, maxBuffer: 16 * 1024 * 1024 })).stdout
    .split("\n")
    .filter((f) => f !== "")
  const run = await biome(["ci", "--error-on-warnings", "--colors=off", "--max-diagnostics=50", ...tracked])
  expect(run.out, run.out).toMatch(/Checked \d+ files/)
  expect(run.code, run.out).toBe(0)
}, 120_000)

// A file with one formatting fault and one lint error, checked with the repository's configuration.
it("the checker refuses an unformatted file and a lint error", async () => {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-format-"))
  try {
    copyFileSync(join(root, "biome.jsonc"), join(dir, "biome.jsonc"))
    mkdirSync(join(dir, "src"))
    writeFileSync(join(dir, "src/example.ts"), "export const answer = {value:1};\nexport let later\n")
    const run = await biome(["ci", "--colors=off", "--vcs-enabled=false", dir])
    expect(run.code).not.toBe(0)
    expect(run.out).toMatch(/format/)
    expect(run.out).toMatch(/noImplicitAnyLet/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
