// Deposit settlement across a restart from a checkpoint: what the restarted simulator credits, and how many times,
// is what a full rebuild of the same log credits. A deposit mined in the tail after the checkpoint is credited once
// its confirmations come; one held before the checkpoint (its asset not added) is credited once the asset is added;
// those credited before the restart, before or after the checkpoint, are not credited again.
import { cpSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { SimulatorOptions } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { scenarioFixture } from "../support/scenario.js"
import { dataDir, everyRead, SEED } from "./support.js"

const open: Array<Harness> = []
afterEach(async () => {
  for (const h of open.splice(0)) await h.close()
})

const start = async (dir: string, checkpoints: boolean): Promise<Harness> => {
  const sim: Partial<SimulatorOptions> = {
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: SEED,
    webhooks: false,
    ...(checkpoints ? { checkpoints: { dir, every: 1_000_000, atClose: false, log: () => {} } } : {}),
  }
  const h = await startHarness({ fixture: scenarioFixture, sim })
  open.push(h)
  return h
}

const ok = <T extends { status: number }>(r: T): T => {
  expect([200, 201]).toContain(r.status)
  return r
}

const eth = assetId("ethereum", "sepolia", "ETH")
const usdc = assetId("ethereum", "sepolia", "USDC")

/** The transaction ids of the log's DepositCredited events, with how many times each was credited. */
const creditsOf = async (h: Harness): Promise<Record<string, number>> => {
  const out: Record<string, number> = {}
  for (const e of await Effect.runPromise(h.sim.store.readAll())) {
    if (e.type !== "DepositCredited") continue
    const id = (e.data as { transactionId: string }).transactionId
    out[id] = (out[id] ?? 0) + 1
  }
  return out
}

describe("deposits across a restart from a checkpoint", () => {
  it("are each credited once, as after a full rebuild: one mined in the tail, one held before the checkpoint until its asset is added", {
    timeout: 300_000,
  }, async () => {
    const dir = dataDir()
    const before = await start(dir, true)
    const admin = async (method: string, path: string, body?: unknown) => ok(await before.admin<any>(method, path, body)).body
    const deposit = async (asset: string, amount: string) =>
      (await admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address: ethAddress, assetId: asset, amount }))
        .transactionId as string
    const mine = (blocks: number) => admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks })

    const vaultId = (await admin("POST", "/_sim/vaults", { name: "Ops", type: "test" })).id as string
    await admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 2 })
    const call = async (h: Harness, method: "POST" | "PUT", path: string, item: unknown) =>
      ok(await h.client.call<any>(method, path, { item })).body.data.item
    const accountId = (
      await call(before, "POST", `/vaults/${vaultId}/vault-account`, { name: "alpha", color: "#AA0000", isHiddenInDashboard: false })
    ).vaultAccountId as string
    const ethAddress = (
      await call(before, "PUT", `/vaults/${vaultId}/vault-accounts/${accountId}/add-asset`, { assetId: eth, label: "eth" })
    ).address as string

    // Before the checkpoint: one deposit credited, one of an asset the address does not hold (confirmed, held).
    const early = await deposit(eth, "1")
    await mine(2)
    const held = await deposit(usdc, "25")
    await mine(2)
    expect(await creditsOf(before)).toEqual({ [early]: 1 })
    const at = await before.sim.checkpoint()
    expect(at).toBe(before.sim.models.position)

    // The tail: one deposit mined and credited, one mined with one confirmation of the two it needs.
    const inTail = await deposit(eth, "0.5")
    await mine(2)
    const pending = await deposit(eth, "0.25")
    await mine(1)
    expect(await creditsOf(before)).toEqual({ [early]: 1, [inTail]: 1 })
    const head = before.sim.models.position
    await before.close()
    open.splice(open.indexOf(before), 1)
    const rebuildDir = dataDir()
    cpSync(dir, rebuildDir, { recursive: true })

    // The same steps after a restart from the checkpoint and after a full rebuild of a copy of the log.
    const after = async (h: Harness) => {
      const creds = await createKey(h)
      const client = h.clientFor(creds)
      await ok(await h.admin("POST", "/_sim/clock/advance", { seconds: 60 }))
      const settled = await creditsOf(h)
      await ok(await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 }))
      const mined = await creditsOf(h)
      ok(
        await client.call("PUT", `/vaults/${vaultId}/vault-accounts/${accountId}/add-asset`, {
          item: { assetId: usdc, address: ethAddress },
        }),
      )
      await ok(await h.admin("POST", "/_sim/clock/advance", { seconds: 60 }))
      return { settled, mined, added: await creditsOf(h), reads: await everyRead(h.sim) }
    }
    const restarted = await start(dir, true)
    expect(restarted.sim.restoredFrom).toBe(at)
    expect(restarted.sim.models.position).toBe(head)
    const fromCheckpoint = await after(restarted)
    const rebuilt = await start(rebuildDir, false)
    expect(rebuilt.sim.restoredFrom).toBeUndefined()
    // biome-ignore lint/suspicious/noDuplicateTestHooks: after() is this file's helper (the reads after a start), not a hook
    const fromRebuild = await after(rebuilt)

    // A settlement pass after the start credits nothing again; the next block credits the tail's pending deposit;
    // adding the asset credits the held one.
    expect(fromCheckpoint.settled).toEqual({ [early]: 1, [inTail]: 1 })
    expect(fromCheckpoint.mined).toEqual({ [early]: 1, [inTail]: 1, [pending]: 1 })
    expect(fromCheckpoint.added).toEqual({ [early]: 1, [inTail]: 1, [pending]: 1, [held]: 1 })
    expect(fromRebuild.settled).toEqual(fromCheckpoint.settled)
    expect(fromRebuild.mined).toEqual(fromCheckpoint.mined)
    expect(fromRebuild.added).toEqual(fromCheckpoint.added)
    expect(fromCheckpoint.reads).toEqual(fromRebuild.reads)
  })
})
