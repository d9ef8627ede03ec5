// Exactly-once webhook delivery across nodes: `npm run webhook-nodes -- [--notifications N]`. Two simulators share
// one EventStoreDB (the gRPC double, in this process), one subscription points at a local receiver, N notifications are
// raised through both nodes, and both nodes deliver. Prints how many requests the receiver got, how many keys came
// more than once, the attempts each node made and the deliveries each node's log records.
import http from "node:http"
import { loadavg } from "node:os"
import { parseArgs } from "node:util"
import { Effect, Exit } from "effect"
import { createApp } from "../src/api/app.js"
import { toNewEvents } from "../src/commands/run-decider.js"
import { createSimulator, type Simulator } from "../src/simulator.js"
import { EventStore } from "../src/store/event-store.js"
import { makeEsdbStore } from "../src/store/esdb.js"
import { makeHttpTransport, type Transport } from "../src/webhooks/http.js"
import { startEsdbDouble } from "../test/support/esdb-double/index.js"

const { values } = parseArgs({ options: { notifications: { type: "string", default: "10000" } } })
const total = Number(values.notifications)

const startReceiver = async () => {
  const keys = new Map<string, number>()
  let requests = 0
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type?: string; challenge?: string; idempotencyKey?: string }
      if (body.type === "verification")
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: body.challenge }))
      requests++
      keys.set(body.idempotencyKey!, (keys.get(body.idempotencyKey!) ?? 0) + 1)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    keys,
    requests: () => requests,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  }
}

/** Counts the attempts a node starts. */
const counting = (inner: Transport) => {
  let posts = 0
  const transport: Transport = { post: (request, done) => (posts++, inner.post(request, done)), close: () => inner.close() }
  return { transport, posts: () => posts }
}

const raise = async (sim: Simulator, vaultId: string, from: number, count: number) => {
  for (let done = 0; done < count; done += 250) {
    const n = Math.min(250, count - done)
    const exit = await sim.run(
      Effect.gen(function* () {
        const at = sim.clock.now()
        const events = yield* toNewEvents(
          Array.from({ length: n }, (_, i) => {
            const txid = `0x${(from + done + i).toString(16).padStart(64, "0")}`
            return {
              type: "NotificationRaised",
              data: {
                vaultId,
                kind: "INCOMING_CONFIRMED_COIN_TX",
                subject: txid,
                payload: { transactionId: txid, amount: "1", unit: "ETH" },
                at,
              },
            }
          }),
        )
        yield* (yield* EventStore).append(`campaignNotifications-${sim.ids.next("transaction")}`, events, "no_stream")
      }),
    )
    if (Exit.isFailure(exit)) throw new Error(`raising notifications failed: ${JSON.stringify(exit.cause)}`)
  }
}

const double = await startEsdbDouble()
const receiver = await startReceiver()
const nodes: Array<{ sim: Simulator; posts: () => number; close: () => Promise<void> }> = []
try {
  for (const nodeId of ["", "~1"]) {
    // Everything runs on this process's one loop: a generous deadline keeps a busy moment from failing a read.
    const store = makeEsdbStore(`${double.connectionString}&defaultDeadline=60000`)
    const { transport, posts } = counting(makeHttpTransport({ maxSockets: 64 }))
    const sim = await createSimulator({
      store,
      seed: "webhook-nodes",
      nodeId,
      follow: true,
      defaultWorkspace: true,
      webhooks: { transport, shared: { groups: store.consumerGroups } },
    })
    nodes.push({ sim, posts, close: () => sim.close() })
  }
  const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]]
  const res = await createApp(a.sim).request("/_sim/webhooks", {
    method: "POST",
    headers: { authorization: `Bearer ${a.sim.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url, secret: "campaign-secret", events: ["*"] }),
  })
  const webhook = (await res.json()) as { id: string; status: string }
  if (webhook.status !== "active") throw new Error(`subscription not verified: ${JSON.stringify(webhook)}`)
  const vaultId = a.sim.models.workspace.vaultList(undefined)[0]!.profile.vaultId
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  const eluBefore = performance.eventLoopUtilization()
  await Promise.all([raise(a.sim, vaultId, 0, Math.ceil(total / 2)), raise(b.sim, vaultId, Math.ceil(total / 2), Math.floor(total / 2))])
  const delivered = (sim: Simulator) =>
    sim.models.outbox.subscriptions.get(webhook.id)!.deliveries.filter((d) => d.status === "delivered").length
  while (delivered(a.sim) < total || delivered(b.sim) < total) {
    if (performance.now() - started > 600_000)
      throw new Error(`not delivered within 10 minutes: ${delivered(a.sim)} / ${delivered(b.sim)} of ${total}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  const elu = performance.eventLoopUtilization(eluBefore)
  // Time for a late duplicate to show, were one coming.
  await new Promise((r) => setTimeout(r, 2_000))
  const duplicateKeys = [...receiver.keys.values()].filter((n) => n > 1).length
  const recorded = (sim: Simulator) => {
    const ds = sim.models.outbox.subscriptions.get(webhook.id)!.deliveries
    return { deliveries: ds.length, oneAttempt: ds.filter((d) => d.attempts.length === 1 && d.status === "delivered").length }
  }
  const attemptEvents = double.state.log.filter((e) => e.type === "WebhookDeliveryAttempted").length
  // Messages the store gave again: given back by a node (a retry not due yet), or held past the handover time.
  const givenAgain = double.state.persistentGroups.get(`$all::custody-sim-webhook-${webhook.id}`)?.retried ?? 0
  const ra = recorded(a.sim)
  const rb = recorded(b.sim)
  console.log(`notifications: ${total} (half through each node), delivered in ${seconds.toFixed(1)} s`)
  console.log(
    `this process (both nodes, the store double, the receiver): ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (${Math.round((cpu.user + cpu.system) / total)} µs per delivery), event loop busy ${(elu.utilization * 100).toFixed(0)}% of the time; load ${loadavg()[0]!.toFixed(1)}`,
  )
  console.log(
    `receiver: ${receiver.requests()} requests, ${receiver.keys.size} distinct idempotency keys, ${duplicateKeys} keys more than once`,
  )
  console.log(
    `attempts started: node "" ${a.posts()}, node "~1" ${b.posts()}; attempt events in the log: ${attemptEvents}; messages the store gave again: ${givenAgain}`,
  )
  console.log(
    `recorded deliveries: node "" ${ra.deliveries} (${ra.oneAttempt} delivered at the first attempt), node "~1" ${rb.deliveries} (${rb.oneAttempt})`,
  )
  const ok =
    receiver.requests() === total &&
    receiver.keys.size === total &&
    duplicateKeys === 0 &&
    attemptEvents === total &&
    ra.oneAttempt === total &&
    rb.oneAttempt === total
  console.log(ok ? "0 duplicate deliveries" : "FAILED: duplicates or missing deliveries")
  process.exitCode = ok ? 0 : 1
} finally {
  for (const n of nodes) await n.close()
  await receiver.close()
  await double.stop()
}
