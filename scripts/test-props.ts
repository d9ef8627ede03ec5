// `npm run test:props -- --runs N [--seed S] [vitest args…]`: the property suite (test/properties) with N runs as
// the global budget (each property takes its share, test/properties/budget.ts) and, given, a fixed seed. A failure
// prints its seed and path (and the commands' replayPath): pass them back with --seed to replay it.
import { spawn } from "node:child_process"
import { parseArgs } from "node:util"

const { values, positionals } = parseArgs({
  options: { runs: { type: "string" }, seed: { type: "string" }, help: { type: "boolean", short: "h" } },
  allowPositionals: true,
})

const usage = "usage: npm run test:props -- [--runs N] [--seed S] [extra vitest arguments]"
if (values.help === true) {
  console.log(usage)
  process.exit(0)
}
const integer = (name: string, v: string | undefined, min: number): string | undefined => {
  if (v === undefined) return undefined
  if (!/^-?[0-9]+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) {
    console.error(`--${name} must be an integer${min > Number.MIN_SAFE_INTEGER ? ` of at least ${min}` : ""}\n${usage}`)
    process.exit(2)
  }
  return v
}

const runs = integer("runs", values.runs, 1)
const seed = integer("seed", values.seed, Number.MIN_SAFE_INTEGER)
const env = { ...process.env, ...(runs !== undefined ? { FC_NUM_RUNS: runs } : {}), ...(seed !== undefined ? { FC_SEED: seed } : {}) }
console.log(`properties: ${runs ?? "default"} runs, seed ${seed ?? (process.env.CI ? "fixed (CI)" : "random")}`)

// Many runs outlast vitest's default per-test timeout: the budget is the run count, so no timeout applies.
const child = spawn("npx", ["vitest", "run", "test/properties", "--testTimeout=0", ...positionals], {
  stdio: "inherit",
  env,
  shell: process.platform === "win32",
})
child.on("exit", (code, signal) => process.exit(code ?? (signal !== null ? 1 : 0)))
