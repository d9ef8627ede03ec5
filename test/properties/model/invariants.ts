// What is checked after every command of the model-based test, through the API only: the new events (positions
// strictly increase, every status move is legal), request statuses (#15 agrees with the log and with the model's
// expectations), balances (#8/#9/#11: none negative, total = available + blocked + allocated), conservation of
// money per asset, chain heights, settlement, and read models against a rebuild and an as-of read.
import { expect } from "vitest"
import { TEST_ASSETS, type TestAsset } from "../../../src/testing/arbitraries.js"
import { INITIAL, LEGAL, TERMINAL, reachable, type WireStatus } from "../status-machine.js"
import { compareReads, type LoggedEvent } from "./rebuild.js"
import { checkUtxos } from "./utxo-checks.js"
import { ALL_CHAINS, chainKey, type Model, type ModelRequest, type Real } from "./world.js"

/** Base units of a wire amount; a leading "-" is kept so that negative balances show up as such. */
export const units = (s: string, decimals: number): bigint => {
  const negative = s.startsWith("-")
  const [whole = "0", frac = ""] = (negative ? s.slice(1) : s).split(".")
  const v = BigInt(whole) * 10n ** BigInt(decimals) + BigInt((frac + "0".repeat(decimals)).slice(0, decimals) || "0")
  return negative ? -v : v
}

const readEvents = async (r: Real): Promise<Array<LoggedEvent>> => {
  const out: Array<LoggedEvent> = []
  let from = r.observed.position + 1
  for (;;) {
    const page = await r.sim.admin<{ events: Array<LoggedEvent>; nextPosition?: number }>(
      "GET",
      `/_sim/events?fromPosition=${from}&limit=10000`,
    )
    expect(page.status).toBe(200)
    out.push(...page.body.events)
    if (page.body.nextPosition === undefined) return out
    from = page.body.nextPosition
  }
}

/** Folds the new events into what has been observed; every request status move must be a legal one. */
const observeEvents = (m: Model, r: Real, events: ReadonlyArray<LoggedEvent>) => {
  const o = r.observed
  const levels = new Map(m.requests.map((x) => [x.id, x.levels]))
  for (const e of events) {
    expect(e.position, `position after ${o.position}`).toBeGreaterThan(o.position)
    o.position = e.position
    const d = e.data as Record<string, any>
    if (e.type === "DepositCredited") {
      expect(o.credited.has(d.transactionId), `${d.transactionId} credited twice`).toBe(false)
      o.credited.set(d.transactionId, { address: d.address, assetId: d.assetId, amount: BigInt(d.amount) })
    }
    if (e.type === "ChainBlocksMined") for (const id of d.transactionIds as Array<string>) o.minedAt.set(id, d.fromHeight)
    if (e.type === "TxRequestMined")
      o.mined.set(d.requestId, { fee: BigInt(d.fee), withErrors: d.withErrors, transactionId: d.transactionId })
    if (!e.type.startsWith("TxRequest")) continue
    const from = o.statuses.get(d.requestId)
    const to: WireStatus | undefined =
      e.type === "TxRequestCreated"
        ? d.approvalLevels === 0
          ? "created"
          : "await-approval"
        : e.type === "TxRequestApproved"
          ? d.level === 1 && levels.get(d.requestId) === 2
            ? "await-approval-l2"
            : from
          : e.type === "TxRequestProgressed"
            ? d.status
            : e.type === "TxRequestRejected"
              ? "rejected"
              : e.type === "TxRequestFailed"
                ? "failed"
                : e.type === "TxRequestMined"
                  ? d.withErrors
                    ? "mined-with-errors"
                    : "mined"
                  : "success"
    if (e.type === "TxRequestCreated") expect(d.approvalLevels, `${d.requestId}: approval levels`).toBe(levels.get(d.requestId))
    if (to === undefined || to === from) continue
    expect(
      from === undefined ? INITIAL.has(to) : LEGAL[from].includes(to),
      `${d.requestId}: ${from ?? "(new)"} → ${to} (${e.type} at ${e.position})`,
    ).toBe(true)
    o.statuses.set(d.requestId, to)
  }
}

/** #15 agrees with the log and only moves forward; a finished request ended as the model expected. */
const checkRequests = async (m: Model, r: Real) => {
  for (const q of m.requests) {
    const res = await r.client.call<{ item: { transactionRequestStatus: WireStatus } }>("GET", `/transactionRequests/${q.id}`)
    expect(res.status).toBe(200)
    const status = res.body.data.item.transactionRequestStatus
    expect(status, `${q.id}: #15 against the log`).toBe(r.observed.statuses.get(q.id))
    expect(reachable(q.status, status), `${q.id}: ${q.status} → ${status}`).toBe(true)
    q.status = status
    if (!TERMINAL.has(status)) continue
    const expected = q.rejected ? "rejected" : q.expectFailure ? "failed" : q.expectErrors ? "mined-with-errors" : "success"
    expect(status, `${q.id} (${q.kind}) ended`).toBe(expected)
  }
}

interface Row {
  readonly address: string
  readonly total: bigint
  readonly available: bigint
  readonly blocked: bigint
  readonly allocated: bigint
}

const rowOf = (a: TestAsset, x: Record<string, string>, address: string): Row => ({
  address,
  total: units(x.totalAmount!, a.decimals),
  available: units(x.availableAmount!, a.decimals),
  blocked: units(x.blockedAmount!, a.decimals),
  allocated: units(x.allocatedAmount!, a.decimals),
})

const expectSound = (where: string, b: Row) => {
  for (const [k, v] of Object.entries(b)) if (typeof v === "bigint") expect(v >= 0n, `${where}: ${k} ${v} is negative`).toBe(true)
  expect(b.available + b.blocked + b.allocated, `${where}: total = available + blocked + allocated`).toBe(b.total)
}

/** #9 per asset (every vault address, change addresses included), checked against #8 per address and #11 per vault. */
const readBalances = async (m: Model, r: Real): Promise<Map<string, Array<Row>>> => {
  const v = r.vaultId
  const byAsset = new Map<string, Array<Row>>()
  for (const a of TEST_ASSETS) {
    const res = await r.client.call<{ item: { addresses: Array<Record<string, string>> } }>(
      "GET",
      `/assets/${a.assetId}/vaults/${v}/${a.blockchain}/${a.network}/addresses`,
    )
    expect(res.status).toBe(200)
    const rows = res.body.data.item.addresses.map((x) => rowOf(a, x, x.address!))
    for (const row of rows) expectSound(`${a.symbol} at ${row.address}`, row)
    byAsset.set(a.assetId, rows)
  }
  for (const address of m.addresses) {
    const res = await r.client.call<{ item: { assets: Array<{ symbol: string; assetData: Record<string, string> }> } }>(
      "GET",
      `/vaults/${v}/${address.chain.split("/")[0]}/addresses/${address.address}/assets`,
    )
    expect(res.status).toBe(200)
    expect(res.body.data.item.assets.map((x) => x.symbol).sort(), `assets held by ${address.address}`).toEqual([...address.assets].sort())
    for (const x of res.body.data.item.assets) {
      const a = TEST_ASSETS.find((t) => t.symbol === x.symbol && chainKey(t) === address.chain)!
      expect(rowOf(a, x.assetData, address.address), `#8 against #9 for ${a.symbol} at ${address.address}`).toEqual(
        byAsset.get(a.assetId)!.find((b) => b.address === address.address),
      )
    }
  }
  const vault = await r.client.call<{ item: { assets: Array<{ assetId: string; assetData: Record<string, string> }> } }>(
    "GET",
    `/vaults/${v}/assets`,
  )
  for (const a of TEST_ASSETS) {
    const x = vault.body.data.item.assets.find((y) => y.assetId === a.assetId)
    const rows = byAsset.get(a.assetId)!
    if (x === undefined) {
      expect(rows, `#11 leaves out ${a.symbol}`).toEqual([])
      continue
    }
    const sum = (k: keyof Omit<Row, "address">) => rows.reduce((s, b) => s + b[k], 0n)
    expect(rowOf(a, x.assetData, "vault"), `#11 sums #9 for ${a.symbol}`).toEqual({
      address: "vault",
      total: sum("total"),
      available: sum("available"),
      blocked: sum("blocked"),
      allocated: sum("allocated"),
    })
  }
  return byAsset
}

/** What a request sends of an asset: its amount, or a batch's calls in that asset. */
const sends = (q: ModelRequest, a: TestAsset): bigint =>
  q.calls !== undefined ? q.calls.filter((c) => c.asset === a).reduce((s, c) => s + c.amount, 0n) : q.asset === a ? q.amount : 0n

/** Per asset: what deposits credited = what the vault holds + what mined requests sent out + the fees they paid. */
const checkConservation = (m: Model, r: Real, balances: Map<string, Array<Row>>) => {
  const o = r.observed
  for (const [txid, c] of o.credited) {
    const d = m.deposits.find((x) => x.transactionId === txid)
    expect(d, `credited ${txid} is a deposit the model made`).toBeDefined()
    expect({ address: c.address, assetId: c.assetId, amount: c.amount }).toEqual({
      address: d!.address,
      assetId: d!.asset.assetId,
      amount: d!.amount,
    })
    expect(
      m.addresses.find((x) => x.address === d!.address)?.assets.has(d!.asset.symbol),
      `${txid} credited to an address holding ${d!.asset.symbol}`,
    ).toBe(true)
  }
  for (const a of TEST_ASSETS) {
    const credited = [...o.credited.values()].filter((c) => c.assetId === a.assetId).reduce((s, c) => s + c.amount, 0n)
    const held = balances.get(a.assetId)!.reduce((s, b) => s + b.total, 0n)
    const sent = m.requests.filter((q) => o.mined.get(q.id)?.withErrors === false).reduce((s, q) => s + sends(q, a), 0n)
    const native = TEST_ASSETS.find((x) => chainKey(x) === chainKey(a) && x.type === "COIN")!
    const fees =
      a !== native
        ? 0n
        : m.requests.filter((q) => chainKey(q.asset) === chainKey(a)).reduce((s, q) => s + (o.mined.get(q.id)?.fee ?? 0n), 0n)
    expect({ asset: a.symbol, credited }, `money of ${a.symbol}: held ${held} + sent ${sent} + fees ${fees}`).toEqual({
      asset: a.symbol,
      credited: held + sent + fees,
    })
  }
}

/**
 * What is blocked is held by open requests only: a token's blocked amount at an address is exactly what its open
 * requests send; a coin's is at least that (plus their maximum fees) and nothing without an open request there; a
 * UTXO chain's, summed over the vault, likewise (its requests reserve whole outputs wherever they are).
 */
const checkReservations = (m: Model, balances: Map<string, Array<Row>>) => {
  // Mined releases a request's reservation (its debit replaces it): open means not yet mined, failed or rejected.
  const open = m.requests.filter((q) => !TERMINAL.has(q.status) && q.status !== "mined")
  for (const a of TEST_ASSETS) {
    const rows = balances.get(a.assetId)!
    const onChain = open.filter((q) => chainKey(q.asset) === chainKey(a))
    const sending = (qs: ReadonlyArray<Model["requests"][number]>) => qs.reduce((s, q) => s + sends(q, a), 0n)
    if (a.blockchain === "bitcoin") {
      const blocked = rows.reduce((s, b) => s + b.blocked, 0n)
      if (onChain.length === 0) expect(blocked, "BTC blocked with no open request").toBe(0n)
      else expect(blocked >= sending(onChain), `BTC blocked ${blocked} covers the open requests`).toBe(true)
      continue
    }
    for (const row of rows) {
      const from = onChain.filter((q) => q.sender === row.address)
      // A fee payer's coin holds the maximum fee of the open requests whose gas it pays, and nothing of their amount.
      const paying = a.type === "TOKEN" ? [] : onChain.filter((q) => q.feePayer === row.address)
      const where = `${a.symbol} blocked at ${row.address} (open: ${[...from, ...paying].map((q) => `${q.id} ${q.status}`).join(", ") || "none"})`
      if (a.type === "TOKEN") expect(row.blocked, where).toBe(sending(from))
      else if (from.length === 0 && paying.length === 0) expect(row.blocked, where).toBe(0n)
      else expect(row.blocked >= sending(from), where).toBe(true)
      if (a.type === "COIN" && paying.length > 0) expect(row.blocked > sending(from), `${where}: the fees it pays are held`).toBe(true)
    }
  }
}

/** Heights never decrease; whatever has its confirmations is settled, whichever command mined the block giving them. */
const checkChains = async (m: Model, r: Real) => {
  const res = await r.sim.admin<{ chains: Array<{ blockchain: string; network: string; height: number }> }>("GET", "/_sim/chains")
  for (const c of res.body.chains) {
    const key = chainKey(c)
    if (!ALL_CHAINS.has(key)) continue
    expect(c.height, `${key} height`).toBeGreaterThanOrEqual(r.observed.heights.get(key) ?? 0)
    r.observed.heights.set(key, c.height)
    const required = m.mining.get(key)!.confirmations
    const confirmed = (txid: string) => {
      const at = r.observed.minedAt.get(txid)
      return at !== undefined && c.height - at + 1 >= required
    }
    for (const d of m.deposits)
      if (
        chainKey(d.asset) === key &&
        m.addresses.find((x) => x.address === d.address)?.assets.has(d.asset.symbol) &&
        confirmed(d.transactionId)
      )
        expect(
          r.observed.credited.has(d.transactionId),
          `deposit ${d.transactionId} has ${required} confirmations on ${key}: credited`,
        ).toBe(true)
    for (const q of m.requests) {
      const mined = r.observed.mined.get(q.id)
      if (chainKey(q.asset) === key && mined !== undefined && !mined.withErrors && confirmed(mined.transactionId))
        expect(r.observed.statuses.get(q.id), `request ${q.id} has ${required} confirmations on ${key}`).toBe("success")
    }
  }
}

/** #14's transactionFee of a mined request is the fee it paid (tron's free bandwidth may make that 0). */
const checkFeesShown = async (m: Model, r: Real) => {
  for (const q of m.requests) {
    const mined = r.observed.mined.get(q.id)
    if (mined === undefined) continue
    const res = await r.client.call<{ item: { transactionFee: { amount: string } } }>(
      "GET",
      `/vaults/${r.vaultId}/${q.asset.blockchain}/transactions/${mined.transactionId}`,
    )
    const native = TEST_ASSETS.find((x) => chainKey(x) === chainKey(q.asset) && x.type === "COIN")!
    expect(units(res.body.data.item.transactionFee.amount, native.decimals), `#14 fee of ${q.id} (${q.kind})`).toBe(mined.fee)
  }
}

export const checkInvariants = async (m: Model, r: Real) => {
  const events = await readEvents(r)
  observeEvents(m, r, events)
  for (const e of events) if (e.type.startsWith("TxRequest")) r.observed.requestEvents.push(e)
  await checkUtxos(r.client, r.vaultId, r.observed.requestEvents)
  await checkRequests(m, r)
  const balances = await readBalances(m, r)
  checkConservation(m, r, balances)
  checkReservations(m, balances)
  await checkChains(m, r)
  await checkFeesShown(m, r)
  await compareReads(m, r, events)
}
