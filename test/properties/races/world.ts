// The race tests' world: an in-process simulator on a scheduled store, with an account whose ETH address is funded
// and a few requests already waiting for approval; and the checks that must hold whatever the interleaving.
import { Effect } from "effect"
import type fc from "fast-check"
import { expect } from "vitest"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { startInProcess, type InProcess } from "../../../src/testing/in-process.js"
import { units } from "../model/invariants.js"
import { appendToReplica, startReplica, type LoggedEvent } from "../model/rebuild.js"
import { scheduledStore, type ScheduledStore } from "./scheduled-store.js"

export const ETH = findTestAsset("ETH")
export const FUNDS = 10n ** 15n

export interface RaceWorld {
  readonly sim: InProcess
  readonly scheduled: ScheduledStore
  readonly address: string
  /** Requests created before the race, awaiting approval. */
  readonly waiting: ReadonlyArray<string>
}

/** `policy`: what new requests of the race meet (the waiting ones were created under a manual policy). */
export const startRace = async (s: fc.Scheduler, waitingRequests: number, policy: "auto" | "manual" = "manual"): Promise<RaceWorld> => {
  const scheduled = scheduledStore(s)
  const sim = await startInProcess({
    seed: "race",
    webhooks: false,
    simulator: { store: scheduled.store },
    fixture: {
      vaults: [{ name: "Race vault", type: "test" }],
      apiKeys: [{ name: "race", apiVersion: "2024-05-09", rateLimit: { perSecond: 1e9, burst: 1e9 } }],
    },
  })
  const client = sim.client()
  const account = (
    await client.call<any>("POST", `/vaults/${sim.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const address = (
    await client.call<any>("PUT", `/vaults/${sim.testVaultId}/vault-accounts/${account}/add-asset`, {
      item: { assetId: ETH.assetId, label: "race" },
    })
  ).body.data.item.address as string
  await sim.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  expect(
    (
      await sim.admin("POST", "/_sim/deposits", {
        blockchain: "ethereum",
        network: "sepolia",
        address,
        assetId: ETH.assetId,
        amount: formatAmount(FUNDS, ETH.decimals),
      })
    ).status,
  ).toBe(201)
  await sim.admin("PUT", `/_sim/vaults/${sim.testVaultId}/approval-policy`, { mode: "manual", levels: 1 })
  const waiting: Array<string> = []
  for (let i = 0; i < waitingRequests; i++) {
    const r = await client.call<any>("POST", `/vaults/${sim.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: formatAmount(FUNDS / 8n, ETH.decimals), feePriority: "slow", recipientAddress: ETH.external },
    })
    expect(r.status).toBe(201)
    waiting.push(r.body.data.item.transactionRequestId)
  }
  if (policy === "auto") await sim.admin("PUT", `/_sim/vaults/${sim.testVaultId}/approval-policy`, { mode: "auto", levels: 1 })
  return { sim, scheduled, address, waiting }
}

const logOf = async (w: RaceWorld): Promise<Array<LoggedEvent>> =>
  (await Effect.runPromise(w.sim.sim.store.readAll({}))).map((e) => ({
    position: Number(e.position),
    stream: e.stream,
    revision: Number(e.revision),
    id: e.id,
    type: e.type,
    data: e.data,
    metadata: e.metadata,
  }))

/**
 * Whatever the interleaving: every answer was an expected one, every accepted call left its events (and refused
 * ones none), no transaction was submitted or mined twice, nothing is overdrawn, money is conserved, and a replica
 * rebuilt from the log answers the balance and request reads as the live simulator does.
 */
export const checkAfterRace = async (w: RaceWorld, accepted: { requests: ReadonlyArray<string>; deposits: ReadonlyArray<string> }) => {
  w.scheduled.scheduling = false
  const log = await logOf(w)
  const positions = log.map((e) => e.position)
  expect(positions).toEqual([...positions].sort((a, b) => a - b))
  expect(new Set(log.map((e) => e.id)).size, "no event appended twice").toBe(log.length)
  const created = log.filter((e) => e.type === "TxRequestCreated").map((e) => (e.data as { requestId: string }).requestId)
  for (const id of accepted.requests)
    expect(
      created.filter((x) => x === id),
      `request ${id} answered 201: created once`,
    ).toHaveLength(1)
  expect(created.length, "no request created that was not answered 201").toBe(w.waiting.length + accepted.requests.length)
  const submitted = log.filter((e) => e.type === "ChainTxSubmitted").map((e) => (e.data as { transactionId: string }).transactionId)
  for (const txid of accepted.deposits)
    expect(
      submitted.filter((x) => x === txid),
      `deposit ${txid} submitted once`,
    ).toHaveLength(1)
  expect(new Set(submitted).size, `a transaction submitted twice: ${submitted.join(", ")}`).toBe(submitted.length)
  const mined = log
    .filter((e) => e.type === "ChainBlocksMined")
    .flatMap((e) => (e.data as { transactionIds: Array<string> }).transactionIds)
  expect(new Set(mined).size, `a transaction mined twice: ${mined.join(", ")}`).toBe(mined.length)
  for (const stream of new Set(log.map((e) => e.stream))) {
    const revisions = log.filter((e) => e.stream === stream).map((e) => e.revision)
    expect(revisions, `${stream}: revisions without gaps`).toEqual(revisions.map((_, i) => i))
  }

  const client = w.sim.client()
  const path = `/assets/${ETH.assetId}/vaults/${w.sim.testVaultId}/ethereum/sepolia/addresses`
  const row = (await client.call<any>("GET", path)).body.data.item.addresses.find((a: { address: string }) => a.address === w.address)
  const [total, available, blocked, allocated] = ["totalAmount", "availableAmount", "blockedAmount", "allocatedAmount"].map((k) =>
    units(row[k], ETH.decimals),
  ) as [bigint, bigint, bigint, bigint]
  expect(
    available >= 0n && blocked >= 0n && blocked <= total,
    `no overdraft: total ${total}, available ${available}, blocked ${blocked}`,
  ).toBe(true)
  expect(available + blocked + allocated).toBe(total)
  const credited = log.filter((e) => e.type === "DepositCredited").reduce((s, e) => s + BigInt((e.data as { amount: string }).amount), 0n)
  const spent = log
    .filter((e) => e.type === "TxRequestMined")
    .flatMap((e) => (e.data as { debits: Array<{ amount: string }> }).debits)
    .reduce((s, d) => s + BigInt(d.amount), 0n)
  expect(credited - spent, "credited deposits less what mined requests spent").toBe(total)
  const open = log
    .filter((e) => e.type === "TxRequestCreated")
    .map((e) => e.data as { requestId: string; reservations: Array<{ amount: string }> })
  const closed = new Set(
    log
      .filter((e) => ["TxRequestRejected", "TxRequestFailed", "TxRequestMined"].includes(e.type))
      .map((e) => (e.data as { requestId: string }).requestId),
  )
  expect(
    open.filter((r) => !closed.has(r.requestId)).reduce((s, r) => s + r.reservations.reduce((x, p) => x + BigInt(p.amount), 0n), 0n),
    "blocked = open reservations",
  ).toBe(blocked)

  const replica = await startReplica(w.sim.credentials)
  try {
    await appendToReplica(replica, log)
    for (const p of [path, `/vaults/${w.sim.testVaultId}/transactions?limit=500`, ...created.map((id) => `/transactionRequests/${id}`)]) {
      const [live, rebuilt] = [await client.call<any>("GET", p), await replica.client.call<any>("GET", p)]
      expect(rebuilt.body.data, `GET ${p} on a replica`).toEqual(live.body.data)
    }
  } finally {
    await replica.close()
  }
}
