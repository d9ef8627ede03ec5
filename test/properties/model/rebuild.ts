// Read models against the log: a replica simulator fed a copy of the events (appended stream by stream in position
// order into its own memory store) must answer every read endpoint as the live one does, and so must the live one
// asked "as of" the head of the log.
import { Effect } from "effect"
import { expect } from "vitest"
import type { Credentials, CustodyClient } from "../../../src/client/index.js"
import type { EventMetadata, JsonValue } from "../../../src/store/event-store.js"
import { makeMemoryStore } from "../../../src/store/memory.js"
import { TEST_ASSETS } from "../../../src/testing/arbitraries.js"
import { startInProcess, type InProcess } from "../../../src/testing/in-process.js"
import type { Model, Real } from "./world.js"

/** An event as GET /_sim/events shows it. */
export interface LoggedEvent {
  readonly position: number
  readonly stream: string
  readonly revision: number
  readonly id: string
  readonly type: string
  readonly data: JsonValue
  readonly metadata: EventMetadata
}

export interface Replica {
  readonly sim: InProcess
  readonly client: CustodyClient
  readonly close: () => Promise<void>
}

/** A simulator over an empty store with no workspace of its own: everything it knows comes from `append`. */
export const startReplica = async (credentials: Credentials | undefined): Promise<Replica> => {
  const sim = await startInProcess({ webhooks: false, simulator: { store: makeMemoryStore(), defaultWorkspace: false } })
  return { sim, client: sim.client(credentials), close: sim.close }
}

export const appendToReplica = async (replica: Replica, events: ReadonlyArray<LoggedEvent>) => {
  const store = replica.sim.sim.store
  for (const e of events)
    await Effect.runPromise(
      store.append(
        e.stream,
        [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }],
        e.revision === 0 ? "no_stream" : BigInt(e.revision - 1),
      ),
    )
  await replica.sim.sim.run(replica.sim.sim.runner.pull)
}

/** Every read endpoint of the spec over what the model knows: vaults, assets, addresses, transactions, requests. */
export const readPaths = (m: Model, r: Real): Array<string> => {
  const v = r.vaultId
  const txids = [
    ...m.deposits.map((d) => [d.asset.blockchain, d.transactionId] as const),
    ...m.requests.flatMap((q) => {
      const t = r.observed.mined.get(q.id)?.transactionId
      return t === undefined ? [] : [[q.asset.blockchain, t] as const]
    }),
  ]
  return [
    "/vaults",
    "/vaults/test",
    "/assets/test",
    `/vaults/${v}/assets`,
    `/vaults/${v}/transactions?limit=500`,
    ...TEST_ASSETS.flatMap((a) => [
      `/assets/${a.assetId}/${a.blockchain}/vaults/test`,
      `/assets/${a.assetId}/vaults/${v}/${a.blockchain}/${a.network}/addresses`,
    ]),
    ...m.addresses.map((a) => `/vaults/${v}/${a.chain.split("/")[0]}/addresses/${a.address}/assets`),
    ...txids.map(([blockchain, txid]) => `/vaults/${v}/${blockchain}/transactions/${txid}`),
    ...m.requests.map((q) => `/transactionRequests/${q.id}`),
  ]
}

const answer = async (client: CustodyClient, path: string, headers: Record<string, string> = {}) => {
  const [p, q] = path.split("?")
  const res = await client.call<unknown>("GET", p!, { headers, query: Object.fromEntries(new URLSearchParams(q ?? "")) })
  return { status: res.status, data: res.body.data, error: res.body.error?.code }
}

/** Feeds the replica this step's events, then compares: live = as-of head = replica, endpoint by endpoint. */
export const compareReads = async (m: Model, r: Real, events: ReadonlyArray<LoggedEvent>) => {
  r.replica ??= await startReplica(r.sim.credentials)
  await appendToReplica(r.replica, events)
  const asOf = { "x-sim-as-of": `position:${r.observed.position}` }
  for (const path of readPaths(m, r)) {
    const live = await answer(r.client, path)
    expect(live.status, `GET ${path}`).toBeLessThan(500)
    expect(await answer(r.client, path, asOf), `GET ${path} as of position ${r.observed.position}`).toEqual(live)
    expect(await answer(r.replica.client, path), `GET ${path} on a replica rebuilt from the log`).toEqual(live)
  }
}

/** At the end of a run: a simulator built from scratch over a copy of the whole log answers like the live one. */
export const compareFreshRebuild = async (m: Model, r: Real) => {
  const all: Array<LoggedEvent> = []
  for (let from = 0; ; ) {
    const page = await r.sim.admin<{ events: Array<LoggedEvent>; nextPosition?: number }>(
      "GET",
      `/_sim/events?fromPosition=${from}&limit=10000`,
    )
    all.push(...page.body.events)
    if (page.body.nextPosition === undefined) break
    from = page.body.nextPosition
  }
  const fresh = await startReplica(r.sim.credentials)
  try {
    await appendToReplica(fresh, all)
    for (const path of readPaths(m, r))
      expect(await answer(fresh.client, path), `GET ${path} after a full rebuild`).toEqual(await answer(r.client, path))
  } finally {
    await fresh.close()
  }
}
