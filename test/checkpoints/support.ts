import { join } from "node:path"
import { createApp } from "../../src/api/app.js"
import { digestOf } from "../../src/api/digest/digest.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { T0 } from "../support/harness.js"
import { scenarioFixture } from "../support/scenario.js"
import { worldReads } from "../support/world-reads.js"
import { tempDir } from "../support/temp-dir.js"

export const SEED = "harness"

export const dataDir = (): string => tempDir("custody-sim-ckpt-")

/** Opens the data directory again: with its checkpoints (lines it logs collected), or rebuilding every model from the log. */
export const reopen = async (dir: string, options: { checkpoints: boolean; every?: number; lines?: Array<string> }): Promise<Simulator> =>
  createSimulator({
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: SEED,
    clock: { frozenAt: T0 },
    fixture: scenarioFixture,
    webhooks: false,
    ...(options.checkpoints ? { checkpoints: { dir, every: options.every ?? 1_000_000, log: (l: string) => options.lines?.push(l) } } : {}),
  })

/** Every read a user can make (REST, control plane), plus the audit digest as of every 25th position and the head. */
export const everyRead = async (sim: Simulator): Promise<Record<string, string>> => {
  const app = createApp(sim, { log: { error: () => {}, info: () => {} } })
  const get = async (path: string) => {
    const res = await app.request(`http://sim.test${path}`, { headers: { authorization: `Bearer ${sim.adminToken}` } })
    return { status: res.status, text: await res.text() }
  }
  const reads = await worldReads(sim, get)
  for (let p = 0n; p <= sim.models.position; p += 25n) reads[`digest@${p}`] = await digestOf(sim, p)
  reads["digest"] = await digestOf(sim, undefined)
  return reads
}

/** The reads of a full rebuild of the directory's log (checkpoints not used). */
export const rebuiltReads = async (dir: string): Promise<Record<string, string>> => {
  const sim = await reopen(dir, { checkpoints: false })
  try {
    return await everyRead(sim)
  } finally {
    await sim.close()
  }
}
