// A realistic log of any length for the replay and as-of benchmarks: a real workspace (accounts, derived
// addresses, a configured chain) from the simulator, then blocks of deposits — ChainTxSubmitted ×10,
// ChainBlocksMined, then DepositCredited + NotificationRaised per deposit — cloned from real events and
// appended straight through the store port (no HTTP, no deciders: generation stays fast).
import { Effect } from "effect"
import { createApp } from "../../../src/api/app.js"
import type { Credentials } from "../../../src/client/signing.js"
import { createSimulator } from "../../../src/simulator.js"
import type { EventStoreShape, JsonValue, NewEvent, RecordedEvent } from "../../../src/store/event-store.js"
import { makeMemoryStore } from "../../../src/store/memory.js"
import { assetsOf } from "../../../src/domain/chains/index.js"

export const LOG_SEED = "bench-ledger"
const PER_BLOCK = 10

export interface LedgerLogPlan {
  /** The workspace events, in order (from a real simulator run). */
  readonly prefix: ReadonlyArray<RecordedEvent>
  readonly creds: Credentials
  readonly vaultId: string
  readonly addresses: ReadonlyArray<string>
  readonly templates: Readonly<Record<"submitted" | "mined" | "credited" | "notified", RecordedEvent>>
}

const obj = (v: JsonValue) => v as Record<string, JsonValue>

/** Runs a small real scenario on the memory store: `addresses` accounts with an ETH (sepolia) address each, one deposit. */
export const planLedgerLog = async (addresses: number): Promise<LedgerLogPlan> => {
  const sim = await createSimulator({
    store: makeMemoryStore(),
    clock: { frozenAt: Date.UTC(2026, 0, 1) },
    fixture: {
      seed: LOG_SEED,
      vaults: [{ name: "Bench vault", type: "test" }],
      apiKeys: [{ name: "bench", apiVersion: "2024-05-09", rateLimit: { perSecond: 1e9, burst: 1e9 } }],
    },
  })
  const app = createApp(sim, { log: { error: () => {}, info: () => {} } })
  const creds = sim.createdCredentials[0]!
  const vaultId = sim.models.workspace.vaultList(undefined)[0]!.profile.vaultId
  const admin = async (method: string, path: string, body: unknown) => {
    const res = await app.request(`http://bench${path}`, {
      method,
      headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, unknown>
  }
  const { createVaultAccount, addAsset } = await import("../../../src/commands/vault-accounts.js")
  const eth = assetsOf({ blockchain: "ethereum" as never, network: "sepolia" as never }).find((a) => a.symbol === "ETH")!.id
  await admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const list: Array<string> = []
  for (let i = 0; i < addresses; i++) {
    const acct = await sim.run(createVaultAccount(vaultId as never, { name: `a${i}`, color: "#000000", isHiddenInDashboard: false }))
    if (acct._tag !== "Success") throw new Error("account creation failed")
    const added = await sim.run(addAsset(vaultId as never, acct.value.vaultAccountId as never, eth as never, { label: `a${i}` }))
    if (added._tag !== "Success") throw new Error("add-asset failed")
    list.push(added.value.address.address)
  }
  await sim.run(sim.runner.pull)
  await admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address: list[0], assetId: eth, amount: "1.25" })
  const all = await Effect.runPromise(sim.store.readAll())
  await sim.close()
  const find = (type: string) => all.find((e) => e.type === type)!
  const firstDeposit = all.findIndex((e) => e.type === "ChainTxSubmitted")
  return {
    prefix: all.slice(0, firstDeposit),
    creds,
    vaultId,
    addresses: list,
    templates: {
      submitted: find("ChainTxSubmitted"),
      mined: find("ChainBlocksMined"),
      credited: find("DepositCredited"),
      notified: find("NotificationRaised"),
    },
  }
}

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`
const hex = (n: number, len: number) => n.toString(16).padStart(len, "0")

/** Appends the plan's workspace, then deposit blocks until the log holds `total` events; returns the count. */
export const writeLedgerLog = async (store: EventStoreShape, plan: LedgerLogPlan, total: number): Promise<number> => {
  const revisions = new Map<string, bigint>()
  let written = 0
  let n = 0
  const append = async (stream: string, events: ReadonlyArray<NewEvent>) => {
    const last = revisions.get(stream)
    await Effect.runPromise(store.append(stream, events, last === undefined ? "no_stream" : last))
    revisions.set(stream, (last ?? -1n) + BigInt(events.length))
    written += events.length
  }
  for (const e of plan.prefix) await append(e.stream, [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }])
  const t = plan.templates
  const accountOf = new Map<string, JsonValue>()
  for (const e of plan.prefix)
    if (e.type === "AddressDerived") accountOf.set(obj(e.data).address as string, obj(e.data).vaultAccountId ?? null)
  const chainStream = t.submitted.stream
  const vaultStream = t.credited.stream
  let at = t.submitted.metadata.at
  let height = obj(t.mined.data).toHeight as number
  let seq = 1_000_000
  const meta = (m: RecordedEvent["metadata"]) => ({ ...m, at, seq: ++seq, requestId: hex(seq, 24) })
  while (written < total) {
    at += 12_000
    height++
    const blockHash = `0x${hex(height, 64)}`
    const ids: Array<string> = []
    const chain: Array<NewEvent> = []
    const vault: Array<NewEvent> = []
    for (let k = 0; k < PER_BLOCK; k++) {
      const i = n++
      const transactionId = `0x${hex(i + 1, 64)}`
      const to = plan.addresses[i % plan.addresses.length]!
      const amount = String(1_000_000_000_000_000n + BigInt(i) * 1_000_003n)
      ids.push(transactionId)
      chain.push({
        id: uuid(++seq),
        type: t.submitted.type,
        data: { ...obj(t.submitted.data), transactionId, recordId: hex(i + 1, 24), to, amount, at },
        metadata: meta(t.submitted.metadata),
      })
      vault.push({
        id: uuid(++seq),
        type: t.credited.type,
        data: {
          ...obj(t.credited.data),
          transactionId,
          address: to,
          vaultAccountId: accountOf.get(to) ?? null,
          amount,
          blockHeight: height,
          blockHash,
          confirmations: 1,
          at,
        },
        metadata: meta(t.credited.metadata),
      })
      vault.push({
        id: uuid(++seq),
        type: t.notified.type,
        data: {
          ...obj(t.notified.data),
          subject: transactionId,
          payload: { ...obj(obj(t.notified.data).payload as JsonValue), transactionId, amount: amount, address: to },
          at,
        },
        metadata: meta(t.notified.metadata),
      })
    }
    chain.push({
      id: uuid(++seq),
      type: t.mined.type,
      data: { ...obj(t.mined.data), fromHeight: height, toHeight: height, blockHash, transactionIds: ids, blockAt: at, at },
      metadata: meta(t.mined.metadata),
    })
    await append(chainStream, chain)
    await append(vaultStream, vault)
  }
  return written
}
