// Benchmark: one mined block confirms 10,000 pending deposits, with crediting and read-model updates, in-process.
import { Exit } from "effect"
import { createSimulator } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { findNetwork, assetsOf } from "../../src/domain/chains/index.js"
import { generateAddress, createVaultAccount } from "../../src/commands/vault-accounts.js"
import { configureChain, mineBlocks } from "../../src/commands/chain-mining.js"
import { submitDeposit } from "../../src/commands/chain-deposits.js"
import { withFollowUps } from "../../src/process-managers/after-append.js"
import type { BaseUnits } from "../../src/domain/shared/money.js"
import type { VaultAccountId, VaultId } from "../../src/domain/shared/ids.js"
import { absoluteAtLeast, type Benchmark } from "./lib/types.js"

const must = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isFailure(exit)) throw new Error(JSON.stringify(exit.cause))
  return exit.value
}

/** Deposits per second credited by mining the block that confirms them. */
export const benchDepositsMined = async (deposits = 10_000, addresses = 100): Promise<{ depositsPerSecond: number; seconds: number }> => {
  const sim = await createSimulator({
    store: makeMemoryStore(),
    seed: "bench",
    clock: { frozenAt: Date.UTC(2026, 0, 1) },
    defaultWorkspace: true,
  })
  try {
    const vaultId = sim.models.workspace.vaultList(undefined).find((v) => v.profile.type === "test")!.profile.vaultId as VaultId
    const n = findNetwork("ethereum", "sepolia")!
    const eth = assetsOf({ blockchain: "ethereum", network: "sepolia" }).find((a) => a.symbol === "ETH")!
    const acct = must(
      await sim.run(createVaultAccount(vaultId, { name: "bench", color: "#000000", isHiddenInDashboard: false })),
    ).vaultAccountId
    const targets: Array<string> = []
    for (let i = 0; i < addresses; i++) {
      const r = must(await sim.run(generateAddress(vaultId, n, `a${i}`, null as VaultAccountId | null)))
      targets.push(r.address.address)
    }
    void acct
    must(await sim.run(withFollowUps(configureChain(n, { mode: "manual", confirmations: 1 }))))
    for (let i = 0; i < deposits; i++)
      must(
        await sim.run(
          withFollowUps(submitDeposit({ network: n, assetId: eth.id, to: targets[i % addresses]!, amount: 1_000_000n as BaseUnits })),
        ),
      )
    const start = performance.now()
    must(await sim.run(withFollowUps(mineBlocks(n, 1))))
    const seconds = (performance.now() - start) / 1000
    const credited = [...sim.models.chains.transfers.values()].length
    if (credited !== deposits) throw new Error(`expected ${deposits} transfers, saw ${credited}`)
    return { depositsPerSecond: deposits / seconds, seconds }
  } finally {
    await sim.close()
  }
}

export const depositsMined: Benchmark = {
  name: "deposits-mined",
  description: "mining one block that confirms 10,000 pending deposits, crediting them and updating read models (in-process, memory store)",
  budget: absoluteAtLeast(50_000, "deposits/s"),
  // One block is a fifth of a second: a single sample is at the mercy of one GC or a neighbour's burst. So a
  // warm-up block (the mining and crediting code's first run, untimed), then the median of 5 fresh simulators.
  run: async (o) => {
    if (o.quick) {
      const r = await benchDepositsMined(2_000)
      return { subject: r.depositsPerSecond, unit: "deposits/s", note: `${r.seconds.toFixed(3)} s for the block (quick: one cold run)` }
    }
    await benchDepositsMined(2_000)
    const runs: Array<{ depositsPerSecond: number; seconds: number }> = []
    for (let i = 0; i < 5; i++) runs.push(await benchDepositsMined(10_000))
    runs.sort((a, b) => a.depositsPerSecond - b.depositsPerSecond)
    const mid = runs[2]!
    const range = `${Math.round(runs[0]!.depositsPerSecond).toLocaleString("en")}–${Math.round(runs[4]!.depositsPerSecond).toLocaleString("en")}/s`
    return {
      subject: mid.depositsPerSecond,
      unit: "deposits/s",
      note: `median of 5 blocks of 10,000 after a warm-up block (${mid.seconds.toFixed(3)} s; runs ${range})`,
    }
  },
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchDepositsMined()
  console.log(`deposits-mined: ${Math.round(r.depositsPerSecond)} deposits/s (${r.seconds.toFixed(3)} s for 10,000)`)
}
