// Child process of the checkpoint crash test: a SQLite world with checkpoints, grown by deposits and blocks; after
// each growth it announces a checkpoint and writes it, over and over, until it is killed.
import { writeSync } from "node:fs"
import { join } from "node:path"
import type { Effect } from "effect"
import { submitDeposit } from "../../src/commands/chain-deposits.js"
import { configureChain, mineBlocks } from "../../src/commands/chain-mining.js"
import { generateAddress } from "../../src/commands/vault-accounts.js"
import { assetsOf, findNetwork } from "../../src/domain/chains/index.js"
import type { VaultAccountId, VaultId } from "../../src/domain/shared/ids.js"
import type { BaseUnits } from "../../src/domain/shared/money.js"
import { withFollowUps } from "../../src/process-managers/after-append.js"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"

const [dir] = process.argv.slice(2)
if (dir === undefined) throw new Error("usage: checkpoint-crash-child.ts <data dir>")
const sim = await createSimulator({
  store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
  seed: "checkpoint-crash",
  clock: { frozenAt: Date.UTC(2026, 0, 1) },
  defaultWorkspace: true,
  webhooks: false,
  checkpoints: { dir, every: 1_000_000_000 },
})
const say = (line: unknown) => writeSync(1, `${JSON.stringify(line)}\n`)
const must = async <A, E>(effect: Effect.Effect<A, E, any>) => {
  const exit = await sim.run(effect)
  if (exit._tag === "Failure") throw new Error(String(exit.cause))
  return exit.value
}

const network = findNetwork("ethereum", "sepolia")!
const eth = assetsOf({ blockchain: "ethereum", network: "sepolia" }).find((a) => a.symbol === "ETH")!
const vaultId = sim.models.workspace.vaultList(undefined).find((v) => v.profile.type === "test")!.profile.vaultId as VaultId
const targets: Array<string> = []
for (let i = 0; i < 5; i++)
  targets.push((await must(generateAddress(vaultId, network, `a${i}`, null as VaultAccountId | null))).address.address)
await must(withFollowUps(configureChain(network, { mode: "manual", confirmations: 1 })))

for (let round = 1; ; round++) {
  for (let i = 0; i < 300; i++) {
    await must(
      withFollowUps(submitDeposit({ network, assetId: eth.id, to: targets[i % targets.length]!, amount: 1_000_000n as BaseUnits })),
    )
    if (i % 20 === 19) await must(withFollowUps(mineBlocks(network, 1)))
  }
  await must(sim.runner.pull)
  say({ saving: round, position: String(sim.models.position) })
  const at = await sim.checkpoint()
  say({ saved: round, position: String(at) })
}
