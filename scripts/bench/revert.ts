// Benchmark: revert a world of 10,000 events with 1,000 events after the snapshot (deposits and the blocks that
// confirm them), in process: memory store (budgeted), SQLite beside it. Also reports the snapshot's own cost.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Exit } from "effect"
import { configureChain, mineBlocks } from "../../src/commands/chain-mining.js"
import { submitDeposit } from "../../src/commands/chain-deposits.js"
import { withFollowUps } from "../../src/process-managers/after-append.js"
import { generateAddress } from "../../src/commands/vault-accounts.js"
import { assetsOf, findNetwork } from "../../src/domain/chains/index.js"
import type { VaultAccountId, VaultId } from "../../src/domain/shared/ids.js"
import type { BaseUnits } from "../../src/domain/shared/money.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import type { EventStoreShape } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { fullGc, quantile } from "./lib/stats.js"
import { absoluteAtMost, type Benchmark, type Measurement } from "./lib/types.js"

const must = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isFailure(exit)) throw new Error(JSON.stringify(exit.cause))
  return exit.value
}

const network = findNetwork("ethereum", "sepolia")!
const eth = assetsOf({ blockchain: "ethereum", network: "sepolia" }).find((a) => a.symbol === "ETH")!

/** Deposits to a few addresses, a block every 20 deposits, until the log holds `events` events. */
const growTo = async (sim: Simulator, targets: ReadonlyArray<string>, events: number) => {
  for (let i = 0; sim.models.position + 1n < BigInt(events); i++) {
    must(
      await sim.run(
        withFollowUps(submitDeposit({ network, assetId: eth.id, to: targets[i % targets.length]!, amount: 1_000_000n as BaseUnits })),
      ),
    )
    if (i % 20 === 19) must(await sim.run(withFollowUps(mineBlocks(network, 1))))
    must(await sim.run(sim.runner.pull))
  }
}

export interface RevertFigures {
  readonly revertMs: ReadonlyArray<number>
  readonly snapshotMs: ReadonlyArray<number>
  readonly worldEvents: number
  readonly removedEvents: number
}

export const benchRevert = async (
  store: EventStoreShape & { close?: () => void },
  rounds: number,
  world = 10_000,
  after = 1_000,
): Promise<RevertFigures> => {
  const sim = await createSimulator({
    store,
    seed: "bench",
    clock: { frozenAt: Date.UTC(2026, 0, 1) },
    defaultWorkspace: true,
    webhooks: false,
  })
  try {
    const vaultId = sim.models.workspace.vaultList(undefined).find((v) => v.profile.type === "test")!.profile.vaultId as VaultId
    const targets: Array<string> = []
    for (let i = 0; i < 10; i++)
      targets.push(must(await sim.run(generateAddress(vaultId, network, `a${i}`, null as VaultAccountId | null))).address.address)
    must(await sim.run(withFollowUps(configureChain(network, { mode: "manual", confirmations: 1 }))))
    await growTo(sim, targets, world - after)
    const revertMs: Array<number> = []
    const snapshotMs: Array<number> = []
    let removed = 0
    for (let r = 0; r < rounds; r++) {
      fullGc()
      const t0 = performance.now()
      const snap = await sim.snapshot()
      snapshotMs.push(performance.now() - t0)
      await growTo(sim, targets, world)
      removed = Number(sim.models.position - snap.position)
      fullGc()
      const t1 = performance.now()
      await sim.revert(snap.id)
      revertMs.push(performance.now() - t1)
      if (sim.models.position !== snap.position) throw new Error("revert left the models elsewhere")
    }
    return { revertMs, snapshotMs, worldEvents: world, removedEvents: removed }
  } finally {
    await sim.close()
  }
}

const measurement = (label: string, f: RevertFigures): Measurement => ({
  label,
  subject: quantile(f.revertMs, 0.5),
  unit: "ms",
  note: `p50 of ${f.revertMs.length} reverts of a ${f.worldEvents.toLocaleString("en")}-event world, ${f.removedEvents.toLocaleString("en")} events after the snapshot; p90 ${quantile(f.revertMs, 0.9).toFixed(2)} ms; snapshot p50 ${quantile(f.snapshotMs, 0.5).toFixed(2)} ms`,
  samples: { subject: f.revertMs },
  details: { snapshotP50Ms: quantile(f.snapshotMs, 0.5), revertP90Ms: quantile(f.revertMs, 0.9) },
})

export const revert: Benchmark = {
  name: "revert",
  description: "revert of a 10,000-event world with 1,000 events after the snapshot, in process (memory store; SQLite beside it)",
  budget: absoluteAtMost(5, "ms"),
  run: async (o) => {
    const rounds = o.quick ? 3 : 15
    const memory = await benchRevert(makeMemoryStore(), rounds)
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-bench-revert-"))
    try {
      const sqlite = await benchRevert(makeSqliteStore({ file: join(dir, "events.sqlite") }), rounds)
      return [measurement("memory", memory), measurement("sqlite", sqlite)]
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await benchRevert(makeMemoryStore(), 10)
  console.log(measurement("memory", f))
}
