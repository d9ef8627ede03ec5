// 100 transfers of mixed 2026 kinds sent at once over HTTP, through one node or spread over several sharing a store:
// single-transfer, gas-sponsorship-transfer and batch spend one funded ETH/USDC address (the sponsored ones also one
// fee payer's ETH); multiple-transfer and utxo-transfer spend one funded BTC address's outputs. Every recipient is an
// address of the same vault, so the vault's balances may change only by the fees. Asked for more than there is, some
// must be refused; what the checks then hold: no balance ever below zero, no output spent or held twice, every
// accepted request mined and successful, and each asset's total over the vault changed by exactly the fees paid in it.
import { expect } from "vitest"
import type { Credentials } from "../../src/client/index.js"
import { parseAmount } from "../../src/domain/shared/money.js"
import { assetId } from "./catalogue.js"

export interface RaceAnswer {
  readonly status: number
  readonly body: any
}

/** One simulator node reached over HTTP. */
export interface RaceNode {
  readonly call: (creds: Credentials, method: "GET" | "POST" | "PUT", path: string, item?: unknown) => Promise<RaceAnswer>
  readonly admin: (method: string, path: string, body?: unknown) => Promise<RaceAnswer>
}

export const ETH = assetId("ethereum", "sepolia", "ETH")
export const USDC = assetId("ethereum", "sepolia", "USDC")
export const BTC = assetId("bitcoin", "testnet", "BTC")
const DECIMALS: Readonly<Record<string, number>> = { [ETH]: 18, [USDC]: 6, [BTC]: 8 }
const OUTPUTS = 20
const KINDS = ["single", "sponsored", "batch", "multiple", "utxo"] as const
export const RACE_SIZE = 100
/** Sends of one request at most (a bound, not a timing: each is sent again only once the last was answered). */
const MAX_ATTEMPTS = 500

/**
 * What a definite refusal may be when requests compete: nothing left to spend, an output taken. The checks below read
 * the log, not the answers, so a request written although its answer was lost would still count.
 */
const REFUSALS = new Set(["400 insufficient_balance", "409 utxo_reserved", "409 utxo_already_spent"])

const units = (amount: string, asset: string): bigint => {
  const r = parseAmount(amount, DECIMALS[asset]!)
  if (!r.ok) throw new Error(`not an amount: ${amount}`)
  return r.value
}

const ok = (r: RaceAnswer, what: string, status = 201) => {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`)
  return r
}

interface World {
  readonly vaultId: string
  readonly sender: { readonly acct: string; readonly eth: string; readonly btc: string }
  readonly payer: string
  readonly to: { readonly eth: string; readonly btc: string }
  /** The BTC address's outputs, `txid:vout`. */
  readonly outputs: ReadonlyArray<string>
}

/**
 * The funded world, built through `setupNode` with `setup` (a key that may create vault accounts) and `admin`: the
 * sender's ETH address with 1 ETH and 500 USDC and its BTC address with 20 outputs of 0.001 BTC, a fee payer with
 * 0.003 ETH, a recipient account holding every asset. Blocks are mined as transactions arrive, one confirmation each.
 */
export const buildWorld = async (node: RaceNode, setup: Credentials, vaultId: string): Promise<World> => {
  for (const chain of ["ethereum/sepolia", "bitcoin/testnet"])
    ok(await node.admin("PUT", `/_sim/chains/${chain}/mining`, { mode: "auto", confirmations: 1 }), `mining ${chain}`, 200)
  const account = async (name: string) =>
    ok(await node.call(setup, "POST", `/vaults/${vaultId}/vault-account`, { name, color: "#000000", isHiddenInDashboard: false }), name)
      .body.data.item.vaultAccountId as string
  const add = async (acct: string, asset: string, address?: string) =>
    ok(
      await node.call(
        setup,
        "PUT",
        `/vaults/${vaultId}/vault-accounts/${acct}/add-asset`,
        address === undefined ? { assetId: asset, label: "race" } : { assetId: asset, address },
      ),
      "add-asset",
      200,
    ).body.data.item.address as string
  const deposit = async (blockchain: string, network: string, address: string, asset: string, amount: string) =>
    ok(await node.admin("POST", "/_sim/deposits", { blockchain, network, address, assetId: asset, amount }), "deposit").body
      .transactionId as string
  const senderAcct = await account("sender")
  const eth = await add(senderAcct, ETH)
  await add(senderAcct, USDC, eth)
  const btc = await add(senderAcct, BTC)
  const payerAcct = await account("payer")
  const payer = await add(payerAcct, ETH)
  const toAcct = await account("recipient")
  const toEth = await add(toAcct, ETH)
  await add(toAcct, USDC, toEth)
  const toBtc = await add(toAcct, BTC)
  await deposit("ethereum", "sepolia", eth, ETH, "1")
  await deposit("ethereum", "sepolia", eth, USDC, "500")
  await deposit("ethereum", "sepolia", payer, ETH, "0.003")
  const outputs: Array<string> = []
  for (let i = 0; i < OUTPUTS; i++) outputs.push(`${await deposit("bitcoin", "testnet", btc, BTC, "0.001")}:0`)
  return { vaultId, sender: { acct: senderAcct, eth, btc }, payer, to: { eth: toEth, btc: toBtc }, outputs }
}

/** The i-th request of the race: its kind goes round the five, amounts so that together they ask for more than there is. */
const requestOf = (w: World, i: number): { kind: (typeof KINDS)[number]; path: string; item: Record<string, unknown> } => {
  const kind = KINDS[i % KINDS.length]!
  const base = `/vaults/${w.vaultId}/transaction-requests`
  const round = Math.floor(i / KINDS.length)
  switch (kind) {
    case "single":
      return {
        kind,
        path: `${base}/single-transfer`,
        item: {
          vaultAccountId: w.sender.acct,
          assetId: ETH,
          fromAddress: w.sender.eth,
          toAddress: w.to.eth,
          amount: "0.06",
          feePriority: "standard",
          note: `s${i}`,
        },
      }
    case "sponsored":
      return {
        kind,
        path: `${base}/gas-sponsorship-transfer`,
        item: {
          vaultAccountId: w.sender.acct,
          assetId: USDC,
          fromAddress: w.sender.eth,
          toAddress: w.to.eth,
          amount: "30",
          feePayer: w.payer,
          note: `g${i}`,
        },
      }
    case "batch":
      return {
        kind,
        path: `${base}/batch`,
        item: {
          senderAddress: w.sender.eth,
          feePayer: { address: w.payer, assetId: ETH },
          feePriority: "slow",
          note: `b${i}`,
          recipients: [
            { address: w.to.eth, amount: "0.01", assetId: ETH },
            { address: w.to.eth, amount: "10", assetId: USDC },
          ],
        },
      }
    case "multiple":
      return {
        kind,
        path: `${base}/multiple-transfer`,
        item: {
          vaultAccountId: w.sender.acct,
          assetId: BTC,
          feePriority: "slow",
          note: `m${i}`,
          prepareStrategy: round % 2 === 0 ? "minimize-dust" : "optimize_size",
          recipients: [{ address: w.to.btc, amount: "0.0015" }],
        },
      }
    case "utxo":
      // Two named outputs, overlapping the next request's: at most every other one can have them.
      return {
        kind,
        path: `${base}/utxo-transfer`,
        item: {
          assetId: BTC,
          feePriority: "slow",
          note: `u${i}`,
          senders: [{ utxoId: w.outputs[round % OUTPUTS]! }, { utxoId: w.outputs[(round + 1) % OUTPUTS]! }],
          recipients: [{ address: w.to.btc, amount: "0.0015" }],
        },
      }
  }
}

const totalsOf = async (node: RaceNode, creds: Credentials): Promise<Map<string, bigint>> => {
  const r = ok(await node.call(creds, "GET", "/assets/test?limit=500"), "assets", 200)
  return new Map((r.body.data.items as Array<{ id: string; totalAmount: string }>).map((a) => [a.id, units(a.totalAmount, a.id)]))
}

const eventsOf = async (node: RaceNode): Promise<Array<{ type: string; data: any }>> => {
  const out: Array<{ type: string; data: any }> = []
  for (let from = "0"; ; ) {
    const page = ok(await node.admin("GET", `/_sim/events?fromPosition=${from}&limit=1000`), "events", 200).body
    out.push(...page.events)
    if (page.nextPosition === undefined || page.events.length === 0) return out
    from = String(page.nextPosition)
  }
}

export interface RaceOutcome {
  /** Sends again after a lost write race or a slow store. */
  readonly retries: number
  /** First attempts answered 409 concurrent_modification (a lost write race the command's own retries did not win). */
  readonly firstAttemptConflicts: number
  /** Wall time from sending the first request to the last definite answer. */
  readonly answeredInMs: number
  readonly accepted: Readonly<Record<string, number>>
  readonly refused: Readonly<Record<string, number>>
  readonly fees: Readonly<Record<string, string>>
}

/**
 * Runs the race: the world through `nodes[0]`, then the 100 requests at once, the i-th through `nodes[i % n]`, then
 * the checks through `nodes[0]` once `settled` says every node has caught up (each node is asked the same).
 * `creds`: a 2026-03-20 key; `setup`: one that may create vault accounts in `vaultId`.
 */
export const runTransferRace = async (
  nodes: ReadonlyArray<RaceNode>,
  creds: Credentials,
  setup: Credentials,
  vaultId: string,
  settled: (probe: (node: RaceNode) => Promise<boolean>) => Promise<void>,
): Promise<RaceOutcome> => {
  const first = nodes[0]!
  const w = await buildWorld(first, setup, vaultId)
  await settled(async (n) => (await totalsOf(n, creds)).get(BTC) === units("0.02", BTC))
  const before = await totalsOf(first, creds)
  const requests = Array.from({ length: RACE_SIZE }, (_, i) => requestOf(w, i))
  // As an integrator would, a request refused for a lost write race (409 concurrent_modification) or a slow store (503),
  // both of which write nothing, is sent again at once, through the next node, until it gets a definite answer.
  let retries = 0
  let firstAttemptConflicts = 0
  const send = async (i: number) => {
    for (let attempt = 0; ; attempt++) {
      const a = await nodes[(i + attempt) % nodes.length]!.call(creds, "POST", requests[i]!.path, requests[i]!.item)
      const conflict = a.status === 409 && a.body?.error?.code === "concurrent_modification"
      if (conflict && attempt === 0) firstAttemptConflicts++
      const lost = conflict || a.status === 503
      if (!lost || attempt >= MAX_ATTEMPTS) return a
      retries++
    }
  }
  const sent = performance.now()
  const answers = await Promise.all(requests.map((_, i) => send(i)))
  const answeredInMs = Math.round(performance.now() - sent)
  const accepted: Record<string, number> = {}
  const refused: Record<string, number> = {}
  const ids: Array<string> = []
  answers.forEach((a, i) => {
    const kind = requests[i]!.kind
    if (a.status === 201) {
      accepted[kind] = (accepted[kind] ?? 0) + 1
      ids.push(a.body.data.item.transactionRequestId as string)
    } else {
      const why = `${a.status} ${a.body?.error?.code}`
      expect(REFUSALS.has(why), `request ${i} (${kind}): ${JSON.stringify(a.body)}`).toBe(true)
      refused[why] = (refused[why] ?? 0) + 1
    }
  })
  // Every request got a definite answer. Each alone is affordable, so a refusal for funds or outputs means another
  // request of that chain got through; together they ask for more than there is, so some were refused.
  expect(refused["409 concurrent_modification"] ?? 0).toBe(0)
  const through = (kinds: ReadonlyArray<string>) => kinds.reduce((a, k) => a + (accepted[k] ?? 0), 0)
  expect(through(["single", "sponsored", "batch"])).toBeGreaterThan(0)
  expect(through(["multiple", "utxo"])).toBeGreaterThan(0)
  expect(refused["400 insufficient_balance"] ?? 0).toBeGreaterThan(0)

  // Every request the log holds (the vault had none before the race) mined and successful, as every node sees it;
  // every one answered 201 among them.
  const raced = (events: ReadonlyArray<{ type: string; data: any }>) =>
    events.filter((e) => e.type === "TxRequestCreated" && e.data.vaultId === vaultId).map((e) => e.data.requestId as string)
  const succeeded = async (n: RaceNode) => {
    const events = await eventsOf(n)
    const done = new Set(events.filter((e) => e.type === "TxRequestSucceeded").map((e) => e.data.requestId as string))
    const all = raced(events)
    return ids.every((id) => all.includes(id)) && all.every((id) => done.has(id))
  }
  await settled(succeeded)
  const events = await eventsOf(first)
  const all = raced(events)
  expect(all.length).toBeGreaterThanOrEqual(ids.length)
  expect(all.length).toBeLessThan(RACE_SIZE)
  const created = events.filter((e) => e.type === "TxRequestCreated" && e.data.vaultId === vaultId)

  // No output held or spent by two requests (none of these was released: each was mined).
  const inputs = created.flatMap((e) =>
    (e.data.inputs as Array<{ transactionId: string; vout: number }>).map((x) => `${x.transactionId}:${x.vout}`),
  )
  expect(inputs.length).toBeGreaterThan(0)
  expect(new Set(inputs).size).toBe(inputs.length)
  const utxos = ok(await first.call(creds, "GET", `/vaults/${vaultId}/utxos?limit=500`), "utxos", 200).body.data.items as Array<{
    utxoId?: string
    transactionId?: string
    index?: number
  }>
  const keys = utxos.map((u) => JSON.stringify(u.utxoId ?? [u.transactionId, u.index]))
  expect(new Set(keys).size).toBe(keys.length)

  // No balance of the vault below zero at any point of its history.
  for (let from = "0"; ; ) {
    const page = ok(
      await first.admin("GET", `/_sim/balances/history?vaultId=${vaultId}&fromPosition=${from}&limit=10000`),
      "history",
      200,
    ).body
    for (const c of page.changes as Array<Record<string, string>>)
      for (const k of ["totalAmount", "availableAmount", "blockedAmount", "allocatedAmount"])
        expect(c[k]!.startsWith("-"), `${k} of ${c.address} at ${c.position}`).toBe(false)
    if (page.nextPosition === undefined) break
    from = String(page.nextPosition)
  }

  // Every recipient is the vault's own: each asset's total changed by exactly the fees paid in it.
  const mined = events.filter((e) => e.type === "TxRequestMined" && e.data.vaultId === vaultId)
  expect(mined).toHaveLength(all.length)
  const feeAsset = (e: { data: any }) => (e.data.blockchain === "bitcoin" ? BTC : ETH)
  const fees = new Map<string, bigint>()
  for (const e of mined) fees.set(feeAsset(e), (fees.get(feeAsset(e)) ?? 0n) + BigInt(e.data.fee))
  // A recipient's credit is the follow-up of its block on the node that follows it, which may come after the request
  // reads as succeeded: wait (bounded) until every node counts them; a total still off then fails just below.
  const expected = (asset: string) => before.get(asset)! - (fees.get(asset) ?? 0n)
  await settled(async (n) => {
    const totals = await totalsOf(n, creds)
    return [ETH, USDC, BTC].every((asset) => totals.get(asset) === expected(asset))
  }).catch(() => undefined)
  const after = await totalsOf(first, creds)
  for (const asset of [ETH, USDC, BTC]) expect([asset, after.get(asset)]).toEqual([asset, before.get(asset)! - (fees.get(asset) ?? 0n)])
  expect(fees.get(ETH)! > 0n && fees.get(BTC)! > 0n).toBe(true)
  return {
    retries,
    firstAttemptConflicts,
    answeredInMs,
    accepted,
    refused,
    fees: Object.fromEntries([...fees].map(([k, v]) => [k, v.toString()])),
  }
}
