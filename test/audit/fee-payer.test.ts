// The audit of sponsored transfers: the fee is reconciled against the fee payer's address, the amount against the
// sender's; an export of such a log replays to the same bytes.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAudit } from "../support/audit.js"
import { digestOf } from "../../src/api/digest/digest.js"
import { exportLines } from "../../src/event-log/export.js"
import { loadLog } from "../../src/event-log/replay.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { assetId } from "../support/catalogue.js"
import { exportText, parseFile, writeFile, type Line } from "../support/log-file.js"
import { EXTERNAL_ETH, startSponsorWorld, type SponsorWorld } from "../support/sponsor-world.js"

let w: SponsorWorld
let text: string
let payer: string
let sender: string
beforeAll(async () => {
  w = await startSponsorWorld()
  const s = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "100" })
  const p = await w.account("ethereum", "sepolia", { ETH: "1" })
  sender = s.address
  payer = p.address
  const item = {
    vaultAccountId: s.acct,
    assetId: assetId("ethereum", "sepolia", "USDC"),
    fromAddress: s.address,
    toAddress: EXTERNAL_ETH,
    amount: "40",
    feePayer: p.address,
    feePriority: "slow",
    note: "n",
  }
  expect((await w.post(`/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, item)).status).toBe(201)
  expect(
    (
      await w.post(`/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, {
        ...item,
        assetId: assetId("ethereum", "sepolia", "ETH"),
        amount: "0.5",
      })
    ).status,
  ).toBe(201)
  text = await exportText(w.h)
})
afterAll(async () => w?.close())

const replayed = async (body: string) => {
  const store = makeMemoryStore()
  const loaded = await loadLog(body.split("\n"), store)
  return openReplayed(store, loaded.header.seed)
}
const audited = async (edit: (events: Array<Line>) => Array<Line>) => {
  const { header, events } = parseFile(text)
  const sim = await replayed(writeFile(header, edit(events)))
  try {
    return await runAudit(sim, undefined)
  } finally {
    await sim.close()
  }
}

describe("the audit of sponsored transfers", () => {
  it("a clean log reconciles, as of every position too", async () => {
    const r = await runAudit(w.h.sim, undefined)
    expect(r.discrepancies).toEqual([])
    expect(r.summary).toMatchObject({ withdrawals: 2, debits: 2 })
    for (let p = 0n; p <= w.h.sim.models.position; p++) expect([p, (await runAudit(w.h.sim, p)).discrepancies]).toEqual([p, []])
  })
  it("a fee debited from the sender instead of the fee payer is a debit mismatch naming both addresses", async () => {
    const r = await audited((events) =>
      events.map((e) =>
        e.type === "TxRequestMined"
          ? { ...e, data: { ...e.data, debits: e.data.debits.map((d: any) => (d.address === payer ? { ...d, address: sender } : d)) } }
          : e,
      ),
    )
    expect(r.discrepancies.length).toBeGreaterThan(0)
    const mismatches = r.discrepancies.filter((d) => d.kind === "debit-mismatch")
    expect(mismatches).toHaveLength(2)
    for (const d of mismatches) expect(d.message).toContain(`left ${payer}, expected`)
    expect(mismatches[0]!.message).toContain(`fee payer ${payer}`)
  })
  it("exports, replays to the same bytes and the same answers (audit digest)", async () => {
    const sim = await replayed(text)
    try {
      const header = JSON.parse(parseFile(text).header) as { seed: string; apiVersion: string }
      const lines: Array<string> = []
      for await (const line of exportLines(sim.store, { seed: header.seed, apiVersion: header.apiVersion } as never, {
        includeSecrets: true,
      }))
        lines.push(line)
      expect(`${lines.join("\n")}\n`).toBe(text)
      expect(await digestOf(sim, undefined)).toBe(await digestOf(w.h.sim, undefined))
    } finally {
      await sim.close()
    }
  })
})
