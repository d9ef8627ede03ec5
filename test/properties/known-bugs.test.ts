// Product bugs the properties found, each minimized and kept as a test that asserts the right behaviour and
// expects it to fail today. When one is fixed its test fails with "fixed?": turn it into a regular test then, and
// drop the leniency it needed (model/world.ts Strictness, reference/vault.ts ReferenceOptions).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { chainDecider, type ChainCommand, type ChainState } from "../../src/chain-sim/index.js"
import { fold } from "../../src/domain/shared/decider.js"
import { simInstant } from "../../src/domain/shared/sim-time.js"
import { startInProcess } from "../../src/testing/in-process.js"
import { findTestAsset } from "../../src/testing/arbitraries.js"
import { GIVEN } from "./arbitraries/vault-commands.js"
import { runModel } from "./model/run.js"
import { REGRESSIONS } from "./model/regressions.js"
import { runVault } from "./reference/run-vault.js"
import { LENIENT } from "./model/world.js"
import { checkAfterRace, startRace } from "./races/world.js"

/** Runs what asserts the right behaviour; passes only if it fails the way the bug makes it fail. */
const expectBug = async (what: () => unknown, symptom: RegExp) => {
  let failure: unknown
  try {
    await what()
  } catch (e) {
    failure = e
  }
  expect(failure, "fixed? the right behaviour now holds: make this a regular test").toBeDefined()
  expect(String(failure instanceof Error ? failure.message : failure)).toMatch(symptom)
}

describe("known bugs", () => {
  it("blocks mined by a deposit or a withdrawal do not settle what they confirm until the next mine, clock step or mining change", async () => {
    // Auto mining: submitting a deposit runs only the deposit settlement, broadcasting a withdrawal only the
    // withdrawal one (src/chain-sim/simulate.ts submitDeposit, process-managers/withdrawals.ts broadcast).
    const strict = { ...LENIENT, settlesEveryBlock: true }
    await expectBug(() => runModel(REGRESSIONS[1]!.commands, strict), /request \w+ has 2 confirmations on bitcoin\/testnet: expected 'mined' to be 'success'/)
    await expectBug(() => runModel(REGRESSIONS[2]!.commands, strict), /deposit \w+ has 2 confirmations on ethereum\/sepolia: credited/)
  })

  it("#14's transactionFee of a tron transfer is the maximum fee, not what it paid (free bandwidth makes that 0)", async () => {
    // src/api/routes/transactions.ts shows transfer.fee, which broadcast set to the request's maxFee.
    await expectBug(() => runModel(REGRESSIONS[3]!.commands, { ...LENIENT, feeOfDetailIsPaid: true }), /#14 fee of \w+ \(tron-coin\): expected 268000n to be 0n/)
  })

  it("a UTXO request mined with errors debits its fee but leaves its inputs unspent: outputs and balance disagree", async () => {
    // src/chain-sim/process-managers/withdrawals.ts `spending` debits the fee from the first input's address while
    // src/domain/transaction-request/evolve.ts keeps the inputs when withErrors (a UTXO transaction cannot fail
    // after being mined: its fee is what the inputs leave over, spent only if they are).
    // vault.props with utxoExecutionFailures, seed 7, path 128:4:0:1:10:11:10:10:10:10:10:10:11:12:11:11:12:10:10:11:11:13:14:17:17:17:17:9:10:9:9:9:9:9:9:9:9:9:9:9:9:9:17:17:17:18:17:19:19:19
    const shrunk = [
      ...GIVEN,
      { kind: "credit" as const, deposits: [{ address: 21, asset: 0, amount: 2n, tx: "0xdep0" }] },
      { kind: "create-request" as const, draft: { asset: 2, sender: 0, foreign: true, amount: 1n, maxFee: 1n, inputs: [0], change: false } },
      { kind: "mine" as const, request: 0, withErrors: true, fee: 1n },
    ]
    await expectBug(() => runVault(shrunk, { utxoExecutionFailures: true }), /unspent outputs vs balance: expected 2n to be 1n/)
    // Over HTTP the difference is stuck: the balance says 0.00014791 BTC is available, yet 0.00009 cannot be sent.
    await expectBug(async () => {
      const sim = await startInProcess({ webhooks: false })
      try {
        const BTC = findTestAsset("BTC")
        const client = sim.client()
        const acct = (await client.call<any>("POST", `/vaults/${sim.testVaultId}/vault-account`, { item: { name: "a", color: "#000000", isHiddenInDashboard: false } })).body.data.item.vaultAccountId
        const address = (await client.call<any>("PUT", `/vaults/${sim.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: BTC.assetId, label: "w" } })).body.data.item.address
        await sim.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 1 })
        for (const amount of ["0.0001", "0.00005"]) await sim.admin("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: BTC.assetId, amount })
        await sim.admin("POST", "/_sim/chains/bitcoin/testnet/faults", { kind: "execution-failure" })
        const send = () => client.call<any>("POST", `/vaults/${sim.testVaultId}/bitcoin/testnet/transaction-requests`, { item: { feePriority: "slow", recipients: [{ address: BTC.external, amount: "0.00009" }] } })
        expect((await send()).status).toBe(201)
        const held = (await client.call<any>("GET", `/vaults/${sim.testVaultId}/bitcoin/addresses/${address}/assets`)).body.data.item.assets[0].assetData
        expect(held.availableAmount).toBe("0.00014791")
        const again = await send()
        expect([again.status, again.body.error?.code], "0.00009 BTC plus a fee of at most 0.000005 fits in 0.00014791").toEqual([201, undefined])
      } finally {
        await sim.close()
      }
    }, /fits in 0\.00014791/)
  })

  it("an approval racing a clock step submits the approved withdrawal twice, and the chain mines it twice", async () => {
    // races: approve ∥ POST /_sim/clock/advance, seed -1984416863, path 9. Both read the request broadcast and the
    // chain without its transaction (the approval's broadcast, and resumeBroadcasts of the clock step's settleAll),
    // both submit; the second append conflicts, retries, and the chain decider accepts the same transaction again.
    const s = fc.schedulerFor([1, 3, 4, 2, 5, 7, 6, 9, 8, 11, 10, 12])
    const w = await startRace(s, 1)
    try {
      w.scheduled.scheduling = true
      await s.waitFor(Promise.all([w.sim.admin("POST", `/_sim/transaction-requests/${w.waiting[0]}/approve`, {}), w.sim.admin("POST", "/_sim/clock/advance", { seconds: 1 })]))
      await expectBug(() => checkAfterRace(w, { requests: [], deposits: [] }, true), /a transaction submitted twice/)
    } finally {
      await w.sim.close()
    }
  })

  it("the chain decider mines a transaction id it already has (in its mempool or mined) once more", async () => {
    // The process managers check the read model before submitting, which a race gets past (above); the chain stream
    // itself does not know which transactions it holds.
    const decider = chainDecider("ethereum.sepolia")
    const defaults = { mode: "manual" as const, intervalSeconds: 10, confirmations: 1 }
    const now = simInstant(Date.UTC(2026, 0, 1))
    const transfer = { transactionId: "0xt1", recordId: "r1", kind: "withdrawal" as const, assetId: "a", from: "x", to: "y", amount: "1", fee: "1", vout: null }
    const commands: ReadonlyArray<ChainCommand> = [
      { type: "SubmitTx", defaults, transfer, blockHash: () => "0xb", now },
      { type: "MineBlocks", defaults, blocks: 1, blockHash: () => "0xb", now },
      { type: "SubmitTx", defaults, transfer, blockHash: () => "0xb", now },
      { type: "MineBlocks", defaults, blocks: 1, blockHash: () => "0xb", now },
    ]
    const mined: Array<string> = []
    commands.reduce<ChainState>((s, c) => {
      const d = decider.decide(c, s)
      if (d._tag === "Rejected") return s
      for (const e of d.events) if (e.type === "ChainBlocksMined") mined.push(...e.data.transactionIds)
      return fold(decider.evolve, s, d.events)
    }, decider.initialState)
    await expectBug(() => expect(mined, "0xt1 mined once").toEqual(["0xt1"]), /0xt1 mined once/)
  })

  it("a clock step racing an approval answers 409 illegal_transaction_request_transition after doing its work", async () => {
    // races: approve ∥ POST /_sim/clock/advance, seed 1049290698, path 2. Both settlements see the withdrawal mined
    // with its confirmations and record it successful; the loser's retry is refused (already Success) and that
    // refusal becomes the clock step's answer, although the clock moved and the rest of settleAll was skipped.
    const s = fc.schedulerFor([1, 3, 4, 5, 6, 7, 2, 9, 8, 11, 10, 12])
    const w = await startRace(s, 1)
    try {
      w.scheduled.scheduling = true
      const [approved, advanced] = await s.waitFor(
        Promise.all([w.sim.admin<any>("POST", `/_sim/transaction-requests/${w.waiting[0]}/approve`, {}), w.sim.admin<any>("POST", "/_sim/clock/advance", { seconds: 1 })]),
      )
      expect(approved.status).toBe(200)
      await expectBug(() => expect([advanced.status, advanced.body.error?.code], "the clock step succeeds").toEqual([200, undefined]), /the clock step succeeds/)
    } finally {
      await w.sim.close()
    }
  })
})
