// The audit checks every credit: deposits confirmed by the blocks an interval schedule implies with time (a clock
// advance with no later mine) are counted and checked like those a recorded block confirmed, and the counts add up.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import type { AuditReport } from "../../src/audit/audit.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { runAudit } from "../support/audit.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile, writeFile, type Line } from "../support/log-file.js"

const BTC = assetId("bitcoin", "testnet", "BTC")
let h: Harness
let text: string
let address: string
let lateTxid: string

beforeAll(async () => {
  h = await startHarness({ sim: { defaultWorkspace: true } })
  const client = h.clientFor(await createKey(h, { apiVersion: "2024-05-09" }))
  const acct = (
    await client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  address = (
    await client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: BTC, label: "btc" } })
  ).body.data.item.address
  // Bitcoin testnet mines every 600 s and asks for 3 confirmations. One deposit confirmed by recorded blocks...
  await h.admin("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: BTC, amount: "0.1" })
  expect((await h.admin("POST", "/_sim/chains/bitcoin/testnet/mine", { blocks: 3 })).status).toBe(200)
  // ...two mined in the next interval block and confirmed only by the blocks the clock implies (no mine after).
  for (const amount of ["0.2", "0.3"])
    await h.admin("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: BTC, amount })
  const advanced = await h.admin("POST", "/_sim/clock/advance", { seconds: 3600 })
  expect(advanced.status).toBe(200)
  text = await exportText(h)
  const credits = parseFile(text).events.filter((e) => e.type === "DepositCredited")
  expect(credits.map((e) => e.data.amount)).toEqual(["10000000", "20000000", "30000000"])
  lateTxid = credits[2]!.data.transactionId
})
afterAll(async () => h?.close())

const addsUp = (r: AuditReport) => {
  const s = r.summary
  expect(s.deposits).toBe(s.depositsCredited + s.depositsPending + s.depositsNotCredited)
  expect(s.credits).toBe(s.creditsOfDeposits + s.creditsInternal + s.creditsUnmatched)
  expect(s.withdrawals).toBe(s.withdrawalsDebited + s.withdrawalsPending + s.withdrawalsNotDebited)
  expect(s.debits).toBe(s.debitsOfWithdrawals + s.debitsUnmatched)
  expect(s.pending).toBe(s.depositsPending + s.withdrawalsPending)
}

const audited = async (edit: (events: Array<Line>) => Array<Line>): Promise<AuditReport> => {
  const { header, events } = parseFile(text)
  const store = makeMemoryStore()
  const loaded = await loadLog(writeFile(header, edit(events)).split("\n"), store)
  const sim = await openReplayed(store, loaded.header.seed)
  try {
    return await runAudit(sim, undefined)
  } finally {
    await sim.close()
  }
}

describe("deposits confirmed by the clock", () => {
  it("are counted as confirmed and credited: three deposits, three credits, nothing left unchecked", async () => {
    const r = await runAudit(h.sim, undefined)
    expect(r.discrepancies).toEqual([])
    expect(r.summary).toMatchObject({ deposits: 3, credits: 3, depositsCredited: 3, creditsOfDeposits: 3, pending: 0, discrepancies: 0 })
    addsUp(r)
  })

  it("as of every position the counts add up and nothing is a discrepancy", async () => {
    for (let p = 0n; p <= h.sim.models.position; p++) {
      const r = await runAudit(h.sim, p)
      expect([p, r.discrepancies]).toEqual([p, []])
      addsUp(r)
    }
  })

  it("over HTTP and in the text the CLI prints, the same counts", async () => {
    const r = await h.admin<any>("GET", "/_sim/audit")
    expect(r.status).toBe(200)
    expect(r.body.summary).toMatchObject({ deposits: 3, depositsCredited: 3, credits: 3, creditsOfDeposits: 3, creditsUnmatched: 0 })
  })
})

describe("a tampered credit of a deposit the clock confirmed", () => {
  it("an edited amount is named, with its event", async () => {
    let edited: Line | undefined
    const r = await audited((events) =>
      events.map((e) =>
        e.type === "DepositCredited" && e.data.transactionId === lateTxid
          ? (edited = { ...e, data: { ...e.data, amount: "30000001" } })
          : e,
      ),
    )
    expect(r.discrepancies).toEqual([
      expect.objectContaining({
        kind: "credit-mismatch",
        transactionId: lateTxid,
        address,
        message: expect.stringContaining("amount 30000001 (the chain carried 30000000)"),
        events: expect.arrayContaining([expect.objectContaining({ id: edited!.id })]),
      }),
    ])
    addsUp(r)
  })

  it("a credit dated before the clock gave it its confirmations is named: credited too early", async () => {
    const mined = parseFile(text).events.findLast((e) => e.type === "ChainBlocksMined")!
    const r = await audited((events) =>
      events.map((e) =>
        e.type === "DepositCredited" && e.data.transactionId === lateTxid
          ? { ...e, data: { ...e.data, at: mined.data.blockAt }, metadata: { ...e.metadata, at: mined.data.blockAt } }
          : e,
      ),
    )
    expect(r.discrepancies.map((d) => [d.kind, d.transactionId])).toEqual([["credit-mismatch", lateTxid]])
    expect(r.discrepancies[0]!.message).toContain("1 confirmations at")
    expect(r.discrepancies[0]!.message).toContain("before the 3 the chain asked for")
    addsUp(r)
  })

  it("a credit removed: the deposit the clock confirmed was never credited", async () => {
    const r = await audited((events) => events.filter((e) => !(e.type === "DepositCredited" && e.data.transactionId === lateTxid)))
    expect(r.discrepancies.map((d) => [d.kind, d.transactionId])).toEqual([["deposit-not-credited", lateTxid]])
    expect(r.summary).toMatchObject({ deposits: 3, depositsCredited: 2, depositsNotCredited: 1, credits: 2 })
    addsUp(r)
  })
})

describe("a deposit the wall clock confirmed since its chain was last settled", () => {
  it("is in flight, not missing, until the clock's next pass credits it", async () => {
    let wall = Date.UTC(2026, 0, 1)
    const w = await startHarness({ sim: { defaultWorkspace: true, clock: { frozenAt: wall, wall: () => wall } } })
    try {
      const client = w.clientFor(await createKey(w, { apiVersion: "2024-05-09" }))
      const acct = (
        await client.call<any>("POST", `/vaults/${w.testVaultId}/vault-account`, {
          item: { name: "a", color: "#000000", isHiddenInDashboard: false },
        })
      ).body.data.item.vaultAccountId
      const to = (
        await client.call<any>("PUT", `/vaults/${w.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: BTC, label: "btc" } })
      ).body.data.item.address
      const dep = await w.admin("POST", "/_sim/deposits", {
        blockchain: "bitcoin",
        network: "testnet",
        address: to,
        assetId: BTC,
        amount: "0.1",
      })
      expect((await w.admin("POST", "/_sim/chains/bitcoin/testnet/mine", { blocks: 1 })).status).toBe(200)
      expect((await w.admin("PUT", "/_sim/clock", { mode: "wall" })).status).toBe(200)
      wall += 1800_000 // three interval blocks later, and no settlement has run since
      // An unrelated event, written at the later time: the audit point's time moves past the deposit's confirmation.
      expect(
        (
          await client.call<any>("POST", `/vaults/${w.testVaultId}/vault-account`, {
            item: { name: "b", color: "#000000", isHiddenInDashboard: false },
          })
        ).status,
      ).toBe(201)
      const before = await runAudit(w.sim, undefined)
      expect(before.discrepancies).toEqual([])
      expect(before.pending).toEqual([expect.objectContaining({ transactionId: dep.body.transactionId, kind: "deposit" })])
      expect(before.summary).toMatchObject({ deposits: 1, depositsPending: 1, credits: 0 })
      addsUp(before)
      expect((await w.admin("POST", "/_sim/clock/advance", { seconds: 0 })).status).toBe(200)
      const after = await runAudit(w.sim, undefined)
      expect(after.summary).toMatchObject({ deposits: 1, depositsCredited: 1, depositsPending: 0, credits: 1, discrepancies: 0 })
    } finally {
      await w.close()
    }
  })
})
