// Child process of the revert crash test: builds a world A on SQLite, snapshots it, grows it to world B (a few
// commands and thousands of filler events), prints both worlds' digests, then reverts B to A and grows it back,
// over and over, announcing each revert, until it is killed. After each revert it waits for a line on stdin before
// growing again, so a kill the parent times after a revert's start can only land in the revert or after it, never
// in the next growth (which is a third, legitimate world the test does not compare against).
import { writeSync } from "node:fs"
import { createInterface } from "node:readline"
import type { Effect } from "effect"
import { digestOf } from "../../src/api/digest/digest.js"
import { createVault } from "../../src/commands/workspace.js"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"

const [file, fillers = "10000"] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: sqlite-revert-child.ts <file> [filler events]")
const sim = await createSimulator({
  store: makeSqliteStore({ file }),
  seed: "revert-crash",
  clock: { frozenAt: Date.UTC(2026, 0, 1) },
  defaultWorkspace: true,
  webhooks: false,
})
const say = (line: unknown) => writeSync(1, `${JSON.stringify(line)}\n`)
const goes = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const must = async <A, E>(effect: Effect.Effect<A, E, any>) => {
  const exit = await sim.run(effect)
  if (exit._tag === "Failure") throw new Error(String(exit.cause))
  return exit.value
}

const grow = async () => {
  for (const name of ["b1", "b2", "b3"]) await must(createVault({ name, type: "test" }))
  const total = Number(fillers)
  for (let n = 0; n < total; n += 500) {
    const events = Array.from({ length: Math.min(500, total - n) }, (_, i) => ({
      id: `00000000-0000-4000-8000-${(n + i).toString(16).padStart(12, "0")}`,
      type: "CrashFiller",
      data: { n: n + i, text: "filler ".repeat(8) },
      metadata: { at: sim.clock.now(), schemaVersion: 1 },
    }))
    await must(sim.store.append(`crashFiller-${n / 500}`, events, "no_stream"))
  }
  await must(sim.runner.pull)
}

await must(createVault({ name: "a", type: "test" }))
const a = await sim.snapshot()
const worldA = { digest: await digestOf(sim, undefined), head: String(sim.models.position) }
await grow()
const worldB = { digest: await digestOf(sim, undefined), head: String(sim.models.position) }
say({ a: worldA, b: worldB })
for (let round = 1; ; round++) {
  say({ reverting: round })
  await sim.revert(a.id)
  say({ reverted: round })
  const go = await goes.next()
  if (go.done === true) process.exit(0)
  await grow()
}
