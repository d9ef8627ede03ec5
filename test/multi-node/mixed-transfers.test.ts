// The race of the 2026 transfer kinds on two `custody-sim serve --store esdb` nodes sharing one EventStoreDB (the gRPC
// double), requests alternating between them (test/support/transfer-race.ts): no overdraft, no output spent twice,
// every accepted request mined, the vault's totals changed by exactly the fees, as both nodes see it.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/index.js"
import { startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { eventually, startSimProcess, type SimProcess } from "../support/sim-process.js"
import { runTransferRace, type RaceNode } from "../support/transfer-race.js"

let double: EsdbDouble
let a: SimProcess
let b: SimProcess

beforeAll(async () => {
  double = await startEsdbDouble()
  // A generous deadline: 100 requests at once on a loaded machine must not fail for the store's slowness alone.
  const args = ["--store", "esdb", "--esdb", `${double.connectionString}&defaultDeadline=30000`, "--seed", "mixed-transfers"]
  const started = await Promise.allSettled([startSimProcess(args), startSimProcess(args)])
  const up = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []))
  if (up.length < 2) {
    await Promise.all(up.map((n) => n.stop()))
    throw started.find((r) => r.status === "rejected")!.reason
  }
  ;[a, b] = up as [SimProcess, SimProcess]
}, 120_000)

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await double?.stop()
})

const nodeOf = (n: SimProcess): RaceNode => ({
  call: (creds, method, path, item) => n.call(creds, method, path, item),
  admin: (method, path, body) => n.admin(method, path, body),
})

describe("100 concurrent transfers of mixed kinds on two nodes of one EventStoreDB", () => {
  it("no overdraft, no output spent twice, every accepted request mined, the vault's totals changed by exactly the fees", async () => {
    const setup = (a.credentials ?? b.credentials)!
    // The node that did not create the default workspace may not have folded it yet: wait (bounded) until it has.
    let testVault = ""
    await eventually(async () => {
      const vaults = await a.call(setup, "GET", "/vaults/test")
      testVault = vaults.status === 200 ? ((vaults.body.data.items[0]?.id as string | undefined) ?? "") : ""
      return testVault !== ""
    }, 120_000)
    const key = await a.admin("POST", "/_sim/api-keys", { apiVersion: "2026-03-20", rateLimit: { perSecond: 100_000, burst: 100_000 } })
    expect(key.status).toBe(201)
    const creds: Credentials = { key: key.body.key, secret: key.body.secret, passphrase: key.body.passphrase }
    const nodes = [nodeOf(a), nodeOf(b)]
    // Each node follows the store on its own: wait (bounded) until both see what the checks need.
    const settled = async (probe: (n: RaceNode) => Promise<boolean>) => {
      for (const n of nodes) await eventually(() => probe(n), 120_000)
    }
    await settled(async (n) => (await n.call(creds, "GET", "/vaults/test")).status === 200)
    const outcome = await runTransferRace(nodes, creds, setup, testVault, settled)
    console.log(`transfer race, two nodes: ${JSON.stringify(outcome)}`)
  }, 400_000)
})
