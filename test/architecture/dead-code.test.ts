// No dead code: knip, with the repository's knip.jsonc, finds no unused file, export, type or dependency in the
// project; and the same configuration reports a dead export in a small tree, so the check can fail.
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** knip over `cwd` with its knip.jsonc: the exit code and the JSON report. */
const knip = (cwd: string): Promise<{ code: number; report: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, "node_modules/knip/bin/knip.js"), "--no-progress", "--reporter", "json", "--directory", cwd],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 2, report: stdout })
      },
    )
  })

describe("dead code", () => {
  it("the project has no unused file, export, type or dependency", async () => {
    const { code, report } = await knip(root)
    expect(report.trim() === "" ? { issues: [] } : JSON.parse(report)).toEqual({ issues: [] })
    expect(code).toBe(0)
  }, 120_000)

  it("the same configuration reports an export nothing imports", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dead-code-"))
    try {
      copyFileSync(join(root, "knip.jsonc"), join(dir, "knip.jsonc"))
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tree", type: "module", private: true }))
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }))
      mkdirSync(join(dir, "src"))
      writeFileSync(join(dir, "src/index.ts"), `import { used } from "./money.js"\nexport const main = used\n`)
      writeFileSync(join(dir, "src/money.ts"), `export const used = 1\nexport const forgotten = 2\n`)
      const { code, report } = await knip(dir)
      expect(code).toBe(1)
      const issues = (JSON.parse(report) as { issues: ReadonlyArray<{ file: string; exports: ReadonlyArray<{ name: string }> }> }).issues
      expect(issues.flatMap((i) => i.exports.map((e) => `${i.file}: ${e.name}`))).toEqual(["src/money.ts: forgotten"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
