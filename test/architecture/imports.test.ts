// The import rules of .dependency-cruiser.cjs (the layers, no cycle) hold for src/: a violation fails the suite.
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

type Summary = { violations: ReadonlyArray<{ rule: { name: string }; from: string; to: string }>; totalCruised: number }

/** The checker over `src` of `cwd`, with the repository's rules. */
const cruise = async (cwd: string): Promise<Summary> => {
  const run = await promisify(execFile)(
    process.execPath,
    [
      join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
      "src",
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      "json",
    ],
    {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }))
  return (JSON.parse(run.stdout) as { summary: Summary }).summary
}

// A small tree with one back-import per rule (or per layer a rule covers): each must be reported under its rule's
// name, from its file.
const backImports: ReadonlyArray<readonly [rule: string, from: string, imports: string]> = [
  ["domain-is-pure", "src/domain/vault/decide.ts", "../../store/event-store.js"],
  ["chain-decider-knows-the-shared-kernel-only", "src/chain-sim/decide.ts", "../domain/vault/decide.js"],
  ["chain-decider-knows-the-shared-kernel-only", "src/chain-sim/formats.ts", "../commands/chain-mining.js"],
  ["chain-use-cases-run-on-the-command-kernel", "src/commands/chain-mining.ts", "../domain/vault/decide.js"],
  ["commands-sit-on-domain-and-chain-decider", "src/commands/vaults.ts", "../projections/balances.js"],
  ["projections-fold-events", "src/projections/balances/histories.ts", "../../commands/vaults.js"],
  ["projection-storage-knows-no-fold", "src/projections/storage/columns.ts", "../chains.js"],
  ["events-are-the-logs-vocabulary", "src/events/stored-event.ts", "../projections/balances.js"],
  ["store-knows-no-domain", "src/store/event-store.ts", "../domain/shared/money.js"],
  ["no-process-manager-started-by-hand", "src/api/routes/withdraw.ts", "../../process-managers/broadcast.js"],
  ["audit-below-the-api", "src/audit/audit.ts", "../api/routes/withdraw.js"],
  ["adapters-implement-the-ports", "src/adapters/clock.ts", "../projections/balances.js"],
  ["checkpoints-save-the-read-models", "src/checkpoints/checkpoints.ts", "../commands/vaults.js"],
  ["snapshots-below-the-api", "src/snapshots/snapshots.ts", "../api/routes/withdraw.js"],
  ["workspace-is-a-use-case", "src/workspace/bootstrap.ts", "../projections/balances.js"],
  ["ui-is-a-browser-bundle", "src/ui/main.tsx", "../api/routes/withdraw.js"],
  ["nothing-imports-the-ui", "src/webhooks/worker.ts", "../ui/main.js"],
  ["client-does-not-import-the-api", "src/client/index.ts", "../api/routes/withdraw.js"],
  ["core-does-not-import-the-composition-root", "src/process-managers/broadcast.ts", "../simulator.js"],
  ["core-does-not-import-the-composition-root", "src/api/app.ts", "../simulator.js"],
  ["core-does-not-import-the-composition-root", "src/event-log/replay.ts", "../simulator.js"],
  ["runtime-is-the-simulators-interface", "src/runtime/simulator.ts", "../projections/read-models.js"],
  ["runtime-sits-below-its-users", "src/runtime/simulator.ts", "../api/app.js"],
  ["endpoints-import-no-endpoint", "src/api/endpoints/single-transfer.ts", "./transaction-requests.js"],
  ["endpoints-read-through-the-query-layer", "src/api/endpoints/vaults.ts", "../../projections/workspace.js"],
  ["inputs-and-wire-know-no-endpoint", "src/api/inputs/amount.ts", "../endpoints/single-transfer.js"],
  ["inputs-and-wire-know-no-endpoint", "src/api/wire/shape.ts", "../endpoints/vaults.js"],
  ["inputs-and-wire-know-no-endpoint", "src/api/presenters/vaults.ts", "../endpoints/vaults.js"],
  ["every-import-resolves", "src/simulator.ts", "./nowhere.js"],
  ["no-circular", "src/domain/shared/money.ts", "./ids.js"],
  ["no-circular", "src/domain/shared/ids.ts", "./money.js"],
]

describe("import rules", () => {
  it("each rule reports a back-import against it (a tree with one per rule)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "import-rules-"))
    try {
      copyFileSync(join(root, ".dependency-cruiser.cjs"), join(dir, ".dependency-cruiser.cjs"))
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", jsx: "react-jsx" } }),
      )
      const sources = new Map<string, Array<string>>()
      for (const [, from, imports] of backImports) sources.set(from, [...(sources.get(from) ?? []), imports])
      // Every imported file exists (but nowhere.js), so only the rules speak.
      for (const [, from, imports] of backImports) {
        const target = join(dirname(from), imports).replace(/\.js$/, from.endsWith(".tsx") || imports.includes("ui/") ? ".tsx" : ".ts")
        if (!imports.includes("nowhere") && !sources.has(target)) sources.set(target, [])
      }
      for (const [file, imports] of sources) {
        mkdirSync(join(dir, dirname(file)), { recursive: true })
        writeFileSync(
          join(dir, file),
          `${imports.map((i, n) => `import * as m${n} from "${i}"`).join("\n")}\nexport const x = ${imports.map((_, n) => `m${n}`).join(", ") || "1"}\n`,
        )
      }
      const found = (await cruise(dir)).violations.map((v) => `${v.rule.name}: ${v.from}`)
      // A cycle is reported once, from either of its files.
      const reported = (rule: string, from: string) =>
        rule === "no-circular" ? found.some((f) => f.startsWith(`${rule}: `)) : found.includes(`${rule}: ${from}`)
      for (const [rule, from] of backImports) expect(reported(rule, from), `${rule}: ${from} (reported: ${found.join("; ")})`).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it("src/ has no import cycle and no import against the layers", async () => {
    const summary = await cruise(root)
    expect(summary.totalCruised).toBeGreaterThan(100)
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([])
  }, 120_000)
})
