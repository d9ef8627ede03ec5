// Snapshots and reverts interleaved with random requests: every read after a revert is the read recorded when
// the snapshot was taken, and what follows a revert writes the same events as the same requests sent to a fresh
// simulator that replayed the log up to the snapshot.
import fc from "fast-check"
import { expect, it } from "vitest"
import { formatAmount } from "../../src/domain/shared/money.js"
import type { TestAsset } from "../../src/testing/arbitraries.js"
import { startInProcess, type InProcess } from "../../src/testing/in-process.js"
import type { Credentials } from "../../src/client/index.js"
import { runs } from "./budget.js"
import { custody } from "./arbitraries/base-units.js"
import { adminGet, worldReads } from "../support/world-reads.js"
import { inProcessFixtureAt } from "../support/harness.js"

const T0 = Date.UTC(2026, 0, 1)
const SEED = "snapshots-props"

/** What the run knows of its world (its key and vault, accounts, addresses): part of the world, so reverted with it. */
interface Known {
  readonly credentials: Credentials
  readonly vaultId: string
  readonly accounts: ReadonlyArray<string>
  readonly addresses: ReadonlyArray<{ readonly asset: TestAsset; readonly address: string }>
}

type Action =
  | { readonly kind: "account" }
  | { readonly kind: "asset"; readonly account: number; readonly asset: TestAsset }
  | { readonly kind: "deposit"; readonly to: number; readonly amount: bigint }
  | { readonly kind: "mine"; readonly chain: { blockchain: string; network: string }; readonly blocks: number }
  | { readonly kind: "advance"; readonly seconds: number }
  | { readonly kind: "withdraw"; readonly from: number; readonly half: boolean }
  | { readonly kind: "snapshot" }
  | { readonly kind: "revert"; readonly pick: number }

const pick = fc.nat({ max: 15 })
const world: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ kind: "account" as const }),
  fc.record({ kind: fc.constant("asset" as const), account: pick, asset: custody.testAsset() }),
  fc.record({ kind: fc.constant("deposit" as const), to: pick, amount: fc.bigInt({ min: 1n, max: 1_000_000n }) }),
  fc.record({ kind: fc.constant("mine" as const), chain: custody.testChain, blocks: custody.blocks }),
  fc.record({ kind: fc.constant("advance" as const), seconds: fc.integer({ min: 1, max: 900 }) }),
  fc.record({ kind: fc.constant("withdraw" as const), from: pick, half: fc.boolean() }),
)
const actions = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: world },
    { weight: 1, arbitrary: fc.constant({ kind: "snapshot" as const }) },
    { weight: 1, arbitrary: pick.map((p) => ({ kind: "revert" as const, pick: p })) },
  ),
  {
    minLength: 4,
    maxLength: 25,
  },
)

const at = <A>(xs: ReadonlyArray<A>, i: number): A | undefined => (xs.length === 0 ? undefined : xs[i % xs.length])

/** Sends one request of the world; returns what the run knows afterwards. */
const perform = async (sim: InProcess, known: Known, a: Action): Promise<Known> => {
  const client = sim.client(known.credentials)
  const vault = known.vaultId
  switch (a.kind) {
    case "account": {
      const r = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${vault}/vault-account`, {
        item: { name: "acct", color: "#000000", isHiddenInDashboard: false },
      })
      expect(r.status).toBe(201)
      return { ...known, accounts: [...known.accounts, r.body.data.item.vaultAccountId] }
    }
    case "asset": {
      const account = at(known.accounts, a.account)
      if (account === undefined) return known
      const r = await client.call<{ item: { address: string } }>("PUT", `/vaults/${vault}/vault-accounts/${account}/add-asset`, {
        item: { assetId: a.asset.assetId, label: "x" },
      })
      expect([200, 400, 409]).toContain(r.status)
      return r.status === 200 ? { ...known, addresses: [...known.addresses, { asset: a.asset, address: r.body.data.item.address }] } : known
    }
    case "deposit": {
      const to = at(known.addresses, a.to)
      if (to === undefined) return known
      const amount = formatAmount(to.asset.deposit.min + (a.amount % (to.asset.deposit.max - to.asset.deposit.min)), to.asset.decimals)
      const r = await sim.admin("POST", "/_sim/deposits", {
        blockchain: to.asset.blockchain,
        network: to.asset.network,
        address: to.address,
        assetId: to.asset.assetId,
        amount,
      })
      expect(r.status).toBe(201)
      return known
    }
    case "mine":
      expect((await sim.admin("POST", `/_sim/chains/${a.chain.blockchain}/${a.chain.network}/mine`, { blocks: a.blocks })).status).toBe(200)
      return known
    case "advance":
      expect((await sim.admin("POST", "/_sim/clock/advance", { seconds: a.seconds })).status).toBe(200)
      return known
    case "withdraw": {
      const from = at(
        known.addresses.filter((x) => x.asset.symbol === "ETH"),
        a.from,
      )
      if (from === undefined) return known
      const amount = formatAmount(a.half ? from.asset.deposit.min / 2n : from.asset.deposit.max, from.asset.decimals)
      const r = await client.call("POST", `/vaults/${vault}/ethereum/sepolia/addresses/${from.address}/transaction-requests`, {
        item: { amount, feePriority: "standard", recipientAddress: from.asset.external },
      })
      expect([201, 400, 409]).toContain(r.status)
      return known
    }
    default:
      return known
  }
}

const start = (options: { empty?: boolean } = {}) =>
  // Its requests are 2024-05-09's (#18): the workspace's key is pinned there.
  startInProcess({
    seed: SEED,
    frozenAt: T0,
    webhooks: false,
    ...(options.empty ? { simulator: { defaultWorkspace: false } } : { fixture: inProcessFixtureAt("2024-05-09") }),
  })
const readsOf = (sim: InProcess) => worldReads(sim.sim, adminGet(sim.fetch, "", sim.sim.adminToken))
// The full copy: the replayed prefix goes on signing with the recorded keys.
const exportOf = async (sim: InProcess) => (await sim.admin<string>("GET", "/_sim/export?includeSecrets=true")).body
/** The export's event lines after a position, request ids aside (they number a process's requests: see docs/snapshots.md). */
const eventsAfter = (text: string, position: number) =>
  text
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => JSON.parse(line) as { position: number; metadata: Record<string, unknown> })
    .filter((e) => e.position > position)
    .map(({ metadata: { requestId: _r, ...metadata }, ...e }) => JSON.stringify({ ...e, metadata }))

interface Taken {
  readonly id: string
  readonly position: number
  readonly time: number
  readonly known: Known
  readonly reads: Record<string, string>
  readonly log: string
}

it("after a revert every read is as recorded at the snapshot, and what follows matches a fresh replay of the prefix", async () => {
  await fc.assert(
    fc.asyncProperty(actions, async (script) => {
      const sim = await start()
      try {
        let known: Known = { credentials: sim.credentials!, vaultId: sim.testVaultId, accounts: [], addresses: [] }
        let taken: Array<Taken> = []
        let last: { readonly snapshot: Taken; readonly after: Array<Action> } | undefined
        let reverts = 0
        for (const a of script) {
          if (a.kind === "snapshot") {
            const s = await sim.snapshot()
            taken.push({ id: s.id, position: Number(s.position), time: s.time, known, reads: await readsOf(sim), log: await exportOf(sim) })
          } else if (a.kind === "revert") {
            const target = at(taken, a.pick)
            if (target === undefined) continue
            await sim.revert(target.id)
            reverts++
            expect(await readsOf(sim)).toEqual(target.reads)
            taken = taken.slice(0, taken.indexOf(target) + 1)
            known = target.known
            last = { snapshot: target, after: [] }
          } else {
            known = await perform(sim, known, a)
            last?.after.push(a)
          }
        }
        if (last === undefined) return
        // The same requests after a fresh replay of the snapshot's log (its clock where the snapshot's was).
        const fresh = await start({ empty: true })
        try {
          const prefix = last.snapshot.log
          expect(
            (
              await fresh.fetch("/_sim/import", {
                method: "POST",
                headers: { authorization: `Bearer ${fresh.sim.adminToken}` },
                body: prefix,
              })
            ).status,
          ).toBe(200)
          if (last.snapshot.time > fresh.sim.clock.now()) fresh.sim.clock.advance(last.snapshot.time - fresh.sim.clock.now())
          // The prefix's events record the epoch they were written in; the fresh simulator goes on in the last one,
          // and each revert of its own (to where it stands) starts the next, as the run's did.
          const epochs = prefix
            .trimEnd()
            .split("\n")
            .slice(1)
            .map((line) => (JSON.parse(line) as { metadata: { epoch?: number } }).metadata.epoch ?? 0)
          for (let e = Math.max(0, ...epochs); e < reverts; e++) await fresh.revert((await fresh.snapshot()).id)
          let freshKnown = last.snapshot.known
          for (const a of last.after) freshKnown = await perform(fresh, freshKnown, a)
          expect(eventsAfter(await exportOf(fresh), last.snapshot.position)).toEqual(
            eventsAfter(await exportOf(sim), last.snapshot.position),
          )
        } finally {
          await fresh.close()
        }
      } finally {
        await sim.close()
      }
    }),
    { numRuns: runs(0.2) },
  )
}, 240_000)
