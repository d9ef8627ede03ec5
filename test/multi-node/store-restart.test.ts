// A single `custody-sim serve --store esdb` process while its EventStoreDB (the gRPC double) stops and restarts on
// the same port with the same data: commands answer 503 and write nothing, reads keep answering, then all recovers.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/index.js"
import { createVault } from "../../src/commands/workspace.js"
import { createSimulator } from "../../src/simulator.js"
import { makeEsdbStore } from "../../src/store/esdb.js"
import { createEsdbDoubleState, startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { assetId } from "../support/catalogue.js"
import { eventually, startSimProcess, type Answer, type SimProcess } from "../support/sim-process.js"

const state = createEsdbDoubleState()
let double: EsdbDouble
let node: SimProcess
let creds: Credentials
let vault: string
let connection: string

const decoder = new TextDecoder()
const userEvents = () => state.log.filter((e) => !e.type.startsWith("$") && !e.stream.startsWith("$"))
const metadataOf = (e: (typeof state.log)[number]) => JSON.parse(decoder.decode(e.metadata)) as { requestId?: string }

beforeAll(async () => {
  double = await startEsdbDouble({ state })
  connection = `${double.connectionString}&defaultDeadline=2000`
  node = await startSimProcess(["--store", "esdb", "--esdb", connection, "--seed", "restart"])
  creds = node.credentials!
  vault = (await node.call(creds, "GET", "/vaults/test")).body.data.items[0].id
}, 60_000)

afterAll(async () => {
  await node?.stop()
  await double?.stop()
})

const expect503 = (r: Answer, shape: "spec" | "sim") => {
  expect(r.status).toBe(503)
  if (shape === "spec")
    expect(r.body).toMatchObject({
      apiVersion: expect.any(String),
      requestId: expect.any(String),
      error: { code: "service_unavailable", message: expect.stringMatching(/nothing was written/), details: [] },
    })
  else expect(r.body).toMatchObject({ error: { code: "service_unavailable" } })
}

describe("a store restart under a running node", () => {
  it("answers commands 503 service_unavailable and writes nothing while the store is down, reads keep answering, and recovers", async () => {
    const acct = (
      await node.call(creds, "POST", `/vaults/${vault}/vault-account`, { name: "before", color: "#000000", isHiddenInDashboard: false })
    ).body.data.item.vaultAccountId as string
    const eth = await node.call(creds, "PUT", `/vaults/${vault}/vault-accounts/${acct}/add-asset`, {
      assetId: assetId("ethereum", "sepolia", "ETH"),
      label: "eth",
    })
    expect(eth.status).toBe(200)
    const ethAddress = eth.body.data.item.address as string
    const vaultsBefore = (await node.call(creds, "GET", "/vaults/test")).body.data
    const logBefore = userEvents().length

    await double.stop()

    // An add-asset writes an address and the asset in one batch: all of it or nothing.
    const started = performance.now()
    const addAsset = await node.call(creds, "PUT", `/vaults/${vault}/vault-accounts/${acct}/add-asset`, {
      assetId: assetId("bitcoin", "testnet", "BTC"),
      label: "btc",
    })
    const took = performance.now() - started
    expect503(addAsset, "spec")
    expect(took).toBeLessThan(5_000)
    console.log(`store down: a command answered 503 in ${took.toFixed(0)} ms`)
    const account = await node.call(creds, "POST", `/vaults/${vault}/vault-account`, {
      name: "during",
      color: "#000000",
      isHiddenInDashboard: false,
    })
    expect503(account, "spec")
    expect503(await node.admin("POST", "/_sim/vaults", { name: "during", type: "test" }), "sim")
    expect503(
      await node.admin("POST", "/_sim/deposits", {
        blockchain: "ethereum",
        network: "sepolia",
        address: ethAddress,
        assetId: assetId("ethereum", "sepolia", "ETH"),
        amount: "1",
      }),
      "sim",
    )

    // Reads are served from the node's read models, as of the last event it applied.
    const vaults = await node.call(creds, "GET", "/vaults/test")
    expect(vaults.status).toBe(200)
    expect(vaults.body.data).toEqual(vaultsBefore)
    expect((await node.call(creds, "GET", `/vaults/${vault}/addresses/${ethAddress}/assets?blockchain=ethereum`)).status).toBe(200)
    expect((await node.admin("GET", "/_sim/health")).status).toBe(200)

    double = await startEsdbDouble({ port: double.port, state })
    const failed = new Set([addAsset.body.requestId, account.body.requestId])
    expect(userEvents().length).toBe(logBefore)
    expect(userEvents().filter((e) => failed.has(metadataOf(e).requestId))).toEqual([])

    // The client reconnects by itself: the same command now succeeds, once.
    let again: Answer | undefined
    await eventually(async () => {
      again = await node.call(creds, "PUT", `/vaults/${vault}/vault-accounts/${acct}/add-asset`, {
        assetId: assetId("bitcoin", "testnet", "BTC"),
        label: "btc",
      })
      return again.status !== 503
    }, 15_000)
    expect(again!.status).toBe(200)
    const batch = userEvents().filter((e) => metadataOf(e).requestId === again!.body.requestId)
    expect(batch.length).toBeGreaterThanOrEqual(1)
    expect(new Set(batch.map((e) => e.stream)).size).toBe(1)
    expect(
      (await node.call(creds, "POST", `/vaults/${vault}/vault-account`, { name: "after", color: "#000000", isHiddenInDashboard: false }))
        .status,
    ).toBe(201)

    // And its live subscription is back: another writer's event reaches its read models.
    const other = await createSimulator({ store: makeEsdbStore(connection), seed: "restart", nodeId: "other", webhooks: false })
    try {
      const exit = await other.run(createVault({ name: "from elsewhere", type: "test" }))
      expect(exit._tag).toBe("Success")
      const id = exit._tag === "Success" && exit.value.state._tag === "Active" ? exit.value.state.profile.vaultId : ""
      const lag = await eventually(
        async () => (await node.call(creds, "GET", "/vaults/test")).body.data.items.some((v: { id: string }) => v.id === id),
        5_000,
      )
      console.log(`after the store restart: a write by another node reached this node's reads in ${lag.toFixed(1)} ms`)
    } finally {
      await other.close()
    }
  }, 60_000)
})
