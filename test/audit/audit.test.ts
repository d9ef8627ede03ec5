// The audit: a clean scenario reconciles; corrupted logs and a corrupted read model are reported with their events.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAudit } from "../support/audit.js"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import type { Simulator } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startHarness, type Harness } from "../support/harness.js"
import { exportText, parseFile, writeFile, type Line } from "../support/log-file.js"
import { runScenario, scenarioFixture, type ScenarioIds } from "../support/scenario.js"

let h: Harness
let ids: ScenarioIds
let text: string
beforeAll(async () => {
  h = await startHarness({ fixture: scenarioFixture })
  ids = await runScenario(h)
  text = await exportText(h)
})
afterAll(async () => h?.close())

const replay = async (body: string): Promise<Simulator> => {
  const store = makeMemoryStore()
  const loaded = await loadLog(body.split("\n"), store)
  return openReplayed(store, loaded.header.seed)
}
const audited = async (edit: (events: Array<Line>) => Array<Line>) => {
  const { header, events } = parseFile(text)
  const sim = await replay(writeFile(header, edit(events)))
  try {
    return await runAudit(sim, undefined)
  } finally {
    await sim.close()
  }
}

describe("a clean log", () => {
  it("reconciles every balance, deposit and withdrawal", async () => {
    const r = await runAudit(h.sim, undefined)
    expect(r.discrepancies).toEqual([])
    expect(r.ok).toBe(true)
    expect(r.summary).toMatchObject({ deposits: 5, credits: 5, withdrawals: 3, debits: 3, pending: 0 })
    expect(r.events).toBe(Number(h.sim.models.position)) // positions count from 1: the last one is the count
    const eth = r.balances.find((b) => b.address === ids.ethAddress && b.symbol === "ETH")!
    expect(eth.expected.totalAmount).toBe(eth.actual.totalAmount)
    expect(eth.expected.byKind.credit).toBe("1.5")
  })
  it("as of every position: in-flight settlements are pending, never discrepancies", async () => {
    let pendingSeen = 0
    for (let p = 0n; p <= h.sim.models.position; p++) {
      const r = await runAudit(h.sim, p)
      expect([p, r.discrepancies]).toEqual([p, []])
      expect(r.asOf.position).toBe(Number(p))
      pendingSeen += r.pending.length
    }
    expect(pendingSeen).toBeGreaterThan(0)
  })
})

describe("a corrupted log", () => {
  it("an edited DepositCredited amount: the credit disagrees with the chain, naming the event", async () => {
    let edited: Line | undefined
    const r = await audited((events) =>
      events.map((e) => {
        if (e.type !== "DepositCredited" || edited !== undefined) return e
        edited = { ...e, data: { ...e.data, amount: (BigInt(e.data.amount) * 10n).toString() } }
        return edited
      }),
    )
    expect(r.ok).toBe(false)
    expect(r.discrepancies).toEqual([
      expect.objectContaining({
        kind: "credit-mismatch",
        transactionId: edited!.data.transactionId,
        message: expect.stringContaining(`amount ${BigInt(edited!.data.amount)} (the chain carried ${BigInt(edited!.data.amount) / 10n})`),
        events: expect.arrayContaining([
          expect.objectContaining({ id: edited!.id, type: "DepositCredited", position: expect.any(Number) }),
        ]),
      }),
    ])
  })
  it("a DepositCredited removed: the confirmed deposit was never credited", async () => {
    // The main vault's deposit: nothing spends it later, so no balance goes negative as well.
    let removed: Line | undefined
    const r = await audited((events) =>
      events.filter((e) => {
        if (e.type === "DepositCredited" && e.data.vaultId === ids.mainVaultId) return !(removed = e)
        return true
      }),
    )
    expect(r.discrepancies.map((d) => [d.kind, d.transactionId])).toEqual([["deposit-not-credited", removed!.data.transactionId]])
    expect(r.discrepancies[0]!.events.map((e) => e.type)).toEqual(["ChainTxSubmitted", "ChainBlocksMined"])
  })
  it("a DepositCredited repeated under a new id: credited twice", async () => {
    const r = await audited((events) => {
      const i = events.findIndex((e) => e.type === "DepositCredited")
      const copy = { ...events[i]!, id: "00000000-0000-4000-8000-000000000001" }
      return [...events.slice(0, i + 1), copy, ...events.slice(i + 1)]
    })
    expect(r.discrepancies.map((d) => d.kind)).toEqual(["deposit-credited-twice"])
    expect(r.discrepancies[0]!.events.map((e) => e.id)).toContain("00000000-0000-4000-8000-000000000001")
  })
  it("a withdrawal's debit inflated: more left the vault than the chain moved", async () => {
    const r = await audited((events) =>
      events.map((e) =>
        e.type === "TxRequestMined" && e.data.debits.length === 1
          ? { ...e, data: { ...e.data, debits: [{ ...e.data.debits[0], amount: (BigInt(e.data.debits[0].amount) + 1n).toString() }] } }
          : e,
      ),
    )
    expect(r.discrepancies.length).toBeGreaterThan(0)
    expect(new Set(r.discrepancies.map((d) => d.kind))).toEqual(new Set(["debit-mismatch"]))
  })
})

describe("a corrupted read model", () => {
  it("a balance that disagrees with the events is reported with the split and sign checks", async () => {
    const sim = await replay(text)
    try {
      const eth = sim.models.holdings.balance(
        "ethereum",
        "sepolia",
        ids.ethAddress,
        parseFile(text).events.find((e) => e.type === "DepositCredited")!.data.assetId,
        undefined,
      )
      sim.models.holdings.setBalance(
        "ethereum",
        "sepolia",
        ids.ethAddress,
        parseFile(text).events.find((e) => e.type === "DepositCredited")!.data.assetId,
        sim.models.position,
        {
          ...eth,
          total: eth.total + 1n,
          available: -1n,
        },
      )
      const r = await runAudit(sim, undefined)
      expect(r.discrepancies.map((d) => d.kind).sort()).toEqual(["negative-balance", "split-mismatch", "total-mismatch"])
      expect(r.discrepancies[0]!.address).toBe(ids.ethAddress)
    } finally {
      await sim.close()
    }
  })
})

describe("GET /_sim/audit", () => {
  it("gives the audit point's time in UNIX seconds as every time field, with timeMs beside it", async () => {
    const json = await h.admin<any>("GET", `/_sim/audit?asOf=position:20`)
    const ms = h.sim.models.timeline.timeAt(20n)!
    expect(json.body.asOf).toEqual({ position: 20, time: Math.floor(ms / 1000), timeMs: ms })
    const atTime = await h.admin<any>("GET", `/_sim/audit?asOf=time:${json.body.asOf.time}`)
    expect(atTime.body.asOf.time).toBe(json.body.asOf.time)
  })

  it("answers JSON, and a self-contained HTML page with a chart per balance when asked for text/html", async () => {
    const json = await h.admin<any>("GET", `/_sim/audit?asOf=position:20`)
    expect(json.status).toBe(200)
    expect(json.body).toMatchObject({
      format: "custody-sim/audit@1",
      ok: true,
      asOf: { position: 20 },
      digest: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    const res = await h.app.request("http://sim.test/_sim/audit", {
      headers: { authorization: `Bearer ${h.sim.adminToken}`, accept: "text/html" },
    })
    expect(res.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toMatch(/^<!doctype html>/)
    expect((html.match(/<div class="chart" data-chart /g) ?? []).length).toBeGreaterThanOrEqual(4)
    expect(html).toMatch(/<script type="module">[\s\S]+<\/script>\s*<\/body>/)
    expect(html).not.toMatch(/(src|href)=|@import|url\(/)
    expect((await h.admin<any>("GET", "/_sim/audit?asOf=later")).body.error.code).toBe("invalid_sim_as_of")
    expect((await h.admin<any>("GET", "/_sim/audit?as_of=position:1")).status).toBe(400)
  })
})
