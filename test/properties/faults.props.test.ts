// For random API fault schedules over a random sequence of calls (signed vault-account creations, withdrawals and
// reads, and deposits through the control plane): every write acknowledged (201) is in the log, no refused one
// (429/5xx, or a connection reset before the work) is, a write whose answer was lost after the work (lost-answer)
// is, and the accounts and withdrawals the log holds are exactly those acknowledged or lost; each answer that is not
// the real one is a fault's recorded hit. Balances reconcile: the address's balance is its deposits less the amount
// and fee of each withdrawal the log holds, and the outgoing transactions are those withdrawals.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatAmount, parseAmount } from "../../src/domain/shared/money.js"
import { findTestAsset } from "../../src/testing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { PROPERTY_TIMEOUT_MS, runs } from "./budget.js"

const ACCOUNT = { method: "POST", path: "/vaults/{vaultId}/vault-account" } as const
const WITHDRAW = { method: "POST", path: "/vaults/{vaultId}/transaction-requests/single-transfer" } as const
const READ = { method: "GET", path: "/vaults" } as const
const ETH = findTestAsset("ETH", "ethereum")
const TO = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
/** The deposit that funds the withdrawals before any fault is added, base units (1 ETH). */
const FUNDING = 10n ** 18n

const effect = fc.constantFrom(
  { kind: "status", status: 429 },
  { kind: "status", status: 503 },
  { kind: "status", status: 500 },
  { kind: "reset" },
  { kind: "lost-answer" },
)
const schedule = fc.oneof(
  fc.constant({}),
  fc.record({ times: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ every: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ probability: fc.double({ min: 0, max: 1, noNaN: true }), seed: fc.string({ minLength: 1, maxLength: 8 }) }),
)
const fault = fc.record({ match: fc.constantFrom(ACCOUNT, WITHDRAW, READ, { method: "POST" }), effect, schedule })

type Call =
  | { readonly kind: "account" | "read" }
  | { readonly kind: "withdraw"; readonly amount: bigint }
  | { readonly kind: "deposit"; readonly amount: bigint }
const call: fc.Arbitrary<Call> = fc.oneof(
  fc.constantFrom({ kind: "account" as const }, { kind: "read" as const }),
  // Up to 0.01 ETH each: a dozen withdrawals and their fees stay well inside the funding.
  fc.record({ kind: fc.constant("withdraw" as const), amount: fc.bigInt({ min: 1n, max: 10n ** 16n }) }),
  fc.record({ kind: fc.constant("deposit" as const), amount: fc.bigInt({ min: 1n, max: 10n ** 17n }) }),
)

const eth = (units: bigint) => formatAmount(units, ETH.decimals)
const units = (amount: string) => {
  const parsed = parseAmount(amount, ETH.decimals)
  if (!parsed.ok) throw new Error(`not an ETH amount: ${amount}`)
  return parsed.value
}

/** A funded ETH address of a new account, blocks mined as transactions come. */
const fundedAddress = async (h: Harness) => {
  const account = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
    item: { name: "payer", color: "#000000", isHiddenInDashboard: false },
  })
  const accountId: string = account.body.data.item.vaultAccountId
  const added = await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${accountId}/add-asset`, {
    item: { assetId: ETH.assetId, label: "hot" },
  })
  const address: string = added.body.data.item.address
  expect((await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })).status).toBe(200)
  await deposit(h, address, FUNDING)
  return { accountId, address }
}

const deposit = async (h: Harness, address: string, amount: bigint) => {
  const body = { blockchain: "ethereum", network: "sepolia", address, assetId: ETH.assetId, amount: eth(amount) }
  const r = await h.admin("POST", "/_sim/deposits", body)
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300)
}

/** The signed call of `c` (a deposit is the control plane's, which no API fault matches). */
const send = (h: Harness, c: Call, name: string, from: { accountId: string; address: string }) => {
  const post = (url: string, item: object) => h.raw({ method: "POST", url, body: JSON.stringify({ data: { item } }) })
  switch (c.kind) {
    case "account":
      return post(`/vaults/${h.testVaultId}/vault-account`, { name, color: "#123456", isHiddenInDashboard: false })
    case "withdraw":
      return post(`/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
        vaultAccountId: from.accountId,
        assetId: ETH.assetId,
        fromAddress: from.address,
        toAddress: TO,
        amount: eth(c.amount),
        feePriority: "standard",
        note: name,
      })
    default:
      return h.raw({ method: "GET", url: "/vaults" })
  }
}

type LoggedEvent = { type: string; data: { name?: string; vaultId?: string; note?: string } }

/** The names of the accounts and the notes of the withdrawals the log holds, of this run's calls. */
const logged = async (h: Harness) => {
  const log = await h.admin("GET", "/_sim/events?limit=10000")
  expect(log.status).toBe(200)
  const events = log.body.events as Array<LoggedEvent>
  const names = (type: string, of: (e: LoggedEvent) => string | undefined) =>
    events
      .filter((e) => e.type === type)
      .map(of)
      .filter((n): n is string => n?.startsWith("call-") === true)
  return {
    accounts: names("VaultAccountCreated", (e) => (e.data.vaultId === h.testVaultId ? e.data.name : undefined)),
    withdrawals: names("TxRequestCreated", (e) => e.data.note),
  }
}

/** The address's balance, and its outgoing transactions' amounts and fees, as the API shows them with no fault in force. */
const custodyView = async (h: Harness, address: string) => {
  const assets = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/addresses/${address}/assets`)
  const txs = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/transactions?limit=100`)
  const outgoing = (txs.body.data.items as Array<any>).filter((t) => t.direction === "outgoing")
  return {
    balance: units(assets.body.data.item.assets[0].assetData.totalAmount),
    sent: outgoing.map((t) => units(t.recipients[0].amount)),
    fees: outgoing.map((t) => units(t.transactionFee.amount)),
    statuses: outgoing.map((t) => t.status as string),
  }
}

const sum = (xs: ReadonlyArray<bigint>) => xs.reduce((a, x) => a + x, 0n)
const sorted = <T>(xs: ReadonlyArray<T>) => [...xs].sort()

describe("faults over a command sequence", () => {
  it("acknowledged writes are in the log, refused ones are not, and accounts, withdrawals and balances reconcile", {
    timeout: PROPERTY_TIMEOUT_MS,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fault, { minLength: 1, maxLength: 3 }),
        fc.array(call, { minLength: 1, maxLength: 12 }),
        async (faults, calls) => {
          const h = await startHarness()
          try {
            const from = await fundedAddress(h)
            const effects = new Map<string, string>()
            for (const f of faults) {
              const r = await h.admin("POST", "/_sim/faults", { match: f.match, effect: f.effect, ...f.schedule })
              expect(r.status).toBe(201)
              effects.set(r.body.id, f.effect.kind)
            }
            const hits = () => new Map(h.sim.models.faults.all.map((f) => [f.definition.faultId, f.hits]))
            const acknowledged: Array<string> = []
            const refused: Array<string> = []
            const lost: Array<string> = []
            const withdrawn = new Map<string, bigint>()
            let deposited = FUNDING
            for (const [i, c] of calls.entries()) {
              if (c.kind === "deposit") {
                await deposit(h, from.address, c.amount)
                deposited += c.amount
                continue
              }
              const before = hits()
              const name = `call-${i}`
              const r = await send(h, c, name, from)
              const hit = [...hits()].filter(([id, n]) => n > (before.get(id) ?? 0)).map(([id]) => effects.get(id))
              const real = c.kind === "read" ? 200 : 201
              // The real answer, or exactly one fault's hit.
              if (r.status === real) expect(hit.filter((k) => k !== "lost-answer")).toEqual([])
              else expect(hit, `${c.kind} answered ${r.status}: ${JSON.stringify(r.body)}`).toHaveLength(1)
              if (c.kind === "read") continue
              if (c.kind === "withdraw") withdrawn.set(name, c.amount)
              if (r.status === 201) acknowledged.push(name)
              else if (hit[0] === "lost-answer") lost.push(name)
              else refused.push(name)
            }
            expect((await h.admin("DELETE", "/_sim/faults")).status).toBe(200)

            // Reconciled: what the log created is exactly what was acknowledged or lost, each once; nothing refused.
            const inLog = await logged(h)
            const done = new Set([...acknowledged, ...lost])
            const kept = (kind: "account" | "withdraw") => sorted([...done].filter((n) => withdrawn.has(n) === (kind === "withdraw")))
            expect(sorted(inLog.accounts)).toEqual(kept("account"))
            expect(sorted(inLog.withdrawals)).toEqual(kept("withdraw"))
            for (const name of refused) expect([...inLog.accounts, ...inLog.withdrawals]).not.toContain(name)

            // Balances: deposits less each logged withdrawal's amount and fee, and the outgoing transactions are those.
            const view = await custodyView(h, from.address)
            const sent = kept("withdraw").map((n) => withdrawn.get(n)!)
            expect(view.statuses).toEqual(sent.map(() => "completed"))
            expect(sorted(view.sent.map(String))).toEqual(sorted(sent.map(String)))
            expect(eth(view.balance)).toBe(eth(deposited - sum(sent) - sum(view.fees)))
          } finally {
            await h.close()
          }
        },
      ),
      { numRuns: runs(0.1) },
    )
  })
})
