// The import rules of .dependency-cruiser.cjs (the layers, no cycle) hold for src/: a violation fails the suite.
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

describe("import rules", () => {
  it("src/ has no import cycle and no import against the layers", async () => {
    const run = await promisify(execFile)(process.execPath, ["node_modules/dependency-cruiser/bin/dependency-cruise.mjs", "src", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }))
    const summary = (JSON.parse(run.stdout) as { summary: { violations: ReadonlyArray<{ rule: { name: string }; from: string; to: string }>; totalCruised: number } }).summary
    expect(summary.totalCruised).toBeGreaterThan(100)
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([])
  }, 120_000)
})
