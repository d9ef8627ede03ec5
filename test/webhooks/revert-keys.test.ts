// After a revert or a reset, a new notification never gets the idempotency key, transaction id or block hash of one
// delivered before (a receiver that deduplicates on the key, as advised, would drop it), while the resource ids a
// test expects to repeat still do; the keys hold across a restart on SQLite with nothing written since the revert,
// and a log with reverts replays to the same bytes. Over real sockets: the API served on 127.0.0.1, a real receiver.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { signRequest, type Credentials } from "../../src/client/index.js"
import { listen } from "../support/server.js"
import { assetId } from "../support/catalogue.js"
import { startReceiver, type Receiver } from "./receiver.js"
import { T0 } from "../support/harness.js"

const ETH = assetId("ethereum", "sepolia", "ETH")
// Pinned: the version these answers are read in.
const fixture = {
  vaults: [{ name: "Test vault", type: "test" as const, color: "#2E7D32" }],
  apiKeys: [{ name: "k", apiVersion: "2024-05-09" }],
}

interface World {
  readonly sim: InProcess
  readonly creds: Credentials
  readonly url: string
  readonly rx: Receiver
  readonly admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>
  readonly signed: (method: "GET" | "POST" | "PUT", path: string, item?: unknown) => Promise<{ status: number; body: any }>
  readonly close: () => Promise<void>
}

const open: Array<World> = []
const dirs: Array<string> = []
afterEach(async () => {
  for (const w of open.splice(0)) await w.close()
})
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const startWorld = async (
  options: { store?: ReturnType<typeof makeSqliteStore>; rx?: Receiver; creds?: Credentials } = {},
): Promise<World> => {
  const sim = await startInProcess({
    seed: "revert-keys",
    frozenAt: T0,
    fixture,
    ...(options.store !== undefined ? { simulator: { store: options.store } } : {}),
  })
  const server = await listen(sim.app)
  const rx = options.rx ?? (await startReceiver())
  // A restarted store prints no credentials: the first start's are passed on.
  const creds = (options.creds ?? sim.credentials)!
  const parse = async (r: Awaited<ReturnType<typeof request>>) => {
    const text = await r.body.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // an export: JSON lines, kept as text
    }
    return { status: r.statusCode, body: body as any }
  }
  const w: World = {
    sim,
    creds,
    url: server.url,
    rx,
    admin: async (method, path, body) =>
      parse(
        await request(server.url + path, {
          method: method as "GET",
          headers: { authorization: `Bearer ${sim.sim.adminToken}`, "content-type": "application/json" },
          ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
        }),
      ),
    signed: async (method, path, item) => {
      const body = item === undefined ? "" : JSON.stringify({ data: { item } })
      return parse(
        await request(server.url + path, {
          method,
          headers: signRequest(creds, { method, url: path, body }),
          ...(item !== undefined ? { body } : {}),
        }),
      )
    },
    close: async () => {
      await sim.close()
      await server.close()
      if (options.rx === undefined) await rx.close()
    },
  }
  open.push(w)
  return w
}

/** An account with an ETH address, the chain mining at once with one confirmation, and a subscription to everything. */
const prepare = async (w: World) => {
  expect((await w.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })).status).toBe(200)
  const acct = await w.signed("POST", `/vaults/${w.sim.testVaultId}/vault-account`, {
    name: "a",
    color: "#000000",
    isHiddenInDashboard: false,
  })
  expect(acct.status).toBe(201)
  const added = await w.signed("PUT", `/vaults/${w.sim.testVaultId}/vault-accounts/${acct.body.data.item.vaultAccountId}/add-asset`, {
    assetId: ETH,
    label: "eth",
  })
  expect(added.status).toBe(200)
  expect((await w.admin("POST", "/_sim/webhooks", { url: w.rx.url, secret: "whsec-revert-keys", events: ["*"] })).status).toBe(201)
  await w.sim.webhooksIdle()
  return added.body.data.item.address as string
}

const deposit = async (w: World, address: string) => {
  const r = await w.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount: "1" })
  expect(r.status).toBe(201)
  await w.sim.webhooksIdle()
  return r.body.transactionId as string
}

const received = (rx: Receiver) =>
  rx.deliveries().map((d) => ({
    key: d.body.idempotencyKey as string,
    transactionId: d.body.data.item.transactionId as string,
    blockHash: d.body.data.item.minedInBlockHash as string | undefined,
  }))

const accountCreated = async (w: World) =>
  (await w.signed("POST", `/vaults/${w.sim.testVaultId}/vault-account`, { name: "n", color: "#000000", isHiddenInDashboard: false })).body
    .data.item.vaultAccountId as string

describe("after a revert", () => {
  it("a new notification has a key, transaction id and block hash no delivered one had; resource ids still repeat", async () => {
    const w = await startWorld()
    const address = await prepare(w)
    const snap = (await w.admin("POST", "/_sim/snapshots")).body
    const firstAccount = await accountCreated(w)
    const firstTx = await deposit(w, address)
    const before = received(w.rx)
    expect(before.length).toBeGreaterThan(0)

    expect((await w.admin("POST", `/_sim/snapshots/${snap.id}/revert`)).status).toBe(200)
    expect(await accountCreated(w)).toBe(firstAccount)
    const secondTx = await deposit(w, address)
    expect(secondTx).not.toBe(firstTx)
    const after = received(w.rx).slice(before.length)
    expect(after.length).toBe(before.length)

    // Once more, to the same snapshot, then a reset: each starts another epoch.
    expect((await w.admin("POST", `/_sim/snapshots/${snap.id}/revert`)).status).toBe(200)
    const thirdTx = await deposit(w, address)
    expect((await w.admin("POST", "/_sim/reset")).status).toBe(200)
    await prepare(w)
    const fourthTx = await deposit(w, address)
    expect(new Set([firstTx, secondTx, thirdTx, fourthTx]).size).toBe(4)

    const all = received(w.rx)
    expect(all.length).toBeGreaterThanOrEqual(before.length * 4)
    expect(new Set(all.map((d) => d.key)).size).toBe(all.length)
    const hashes = all.flatMap((d) => (d.blockHash === undefined || d.blockHash === null ? [] : [d.blockHash]))
    expect(hashes.length).toBeGreaterThan(0)
    expect(new Set(hashes).size).toBe(new Set(all.filter((d) => typeof d.blockHash === "string").map((d) => d.transactionId)).size)
    // The events written after a revert record its epoch; those before it do not.
    const events = (await w.admin("GET", "/_sim/events?limit=1000")).body.events as Array<{ metadata: Record<string, unknown> }>
    expect(events.at(-1)!.metadata.epoch).toBe(3)
  })

  it("a log with reverts exports, replays and exports again to the same bytes", async () => {
    const w = await startWorld()
    const address = await prepare(w)
    const snap = (await w.admin("POST", "/_sim/snapshots")).body
    await deposit(w, address)
    await w.admin("POST", `/_sim/snapshots/${snap.id}/revert`)
    await deposit(w, address)
    await accountCreated(w)
    const exported = (await w.admin("GET", "/_sim/export")).body as string
    expect(exported).toContain('"epoch":1')

    const fresh = await startInProcess({ seed: "revert-keys", frozenAt: T0, simulator: { defaultWorkspace: false }, webhooks: false })
    try {
      const server = await listen(fresh.app)
      try {
        const auth = { authorization: `Bearer ${fresh.sim.adminToken}` }
        const imported = await request(`${server.url}/_sim/import`, { method: "POST", headers: auth, body: exported })
        expect([imported.statusCode, (await imported.body.json()) as any]).toMatchObject([200, { position: expect.any(Number) }])
        const again = await request(`${server.url}/_sim/export`, { headers: auth })
        expect(await again.body.text()).toBe(exported)
      } finally {
        await server.close()
      }
    } finally {
      await fresh.close()
    }
  })
})

describe("on SQLite", () => {
  it("a restart after a revert, with nothing written since, still hands out no delivered key or transaction id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-revert-keys-"))
    dirs.push(dir)
    const file = join(dir, "events.sqlite")
    const rx = await startReceiver()
    try {
      const first = await startWorld({ store: makeSqliteStore({ file }), rx })
      const address = await prepare(first)
      const snap = (await first.admin("POST", "/_sim/snapshots")).body
      const reverted = await deposit(first, address)
      expect((await first.admin("POST", `/_sim/snapshots/${snap.id}/revert`)).status).toBe(200)
      await first.close()
      open.splice(open.indexOf(first), 1)
      const before = received(rx)

      const second = await startWorld({ store: makeSqliteStore({ file }), rx, creds: first.creds })
      expect(await deposit(second, address)).not.toBe(reverted)
      const after = received(rx).slice(before.length)
      expect(after.length).toBeGreaterThan(0)
      const delivered = new Set(before.map((d) => d.key))
      for (const d of after) expect(delivered.has(d.key)).toBe(false)
      // A signed read afterwards: the restarted world answers.
      expect((await second.signed("GET", "/vaults")).status).toBe(200)
    } finally {
      await rx.close()
    }
  })
})
