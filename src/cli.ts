#!/usr/bin/env node
// The `custody-sim` command: serve, sign. Composition root for the process.
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { serve as serveHttp } from "@hono/node-server"
import { createApp } from "./api/app.js"
import { signRequest } from "./client/signing.js"
import { loadFixture } from "./runtime/fixture.js"
import { openStore, type StoreKind } from "./runtime/stores.js"
import { createSimulator } from "./simulator.js"
import { writeCredentialsFile } from "./runtime/credentials-file.js"
import { NODE_ID } from "./runtime/ids.js"
import { claimNodeSlot } from "./runtime/node-claim.js"
import { dataDirSeed, randomSeed, sharedStoreSeed } from "./runtime/seed.js"
import { guardHosts, isLoopback } from "./api/host-guard.js"

const usage = `custody-sim — a local, deterministic custody REST service simulator

  custody-sim serve [--host 127.0.0.1] [--port 8080] [--store sqlite|memory|esdb] [--data-dir ./.custody-sim]
                    [--durability normal|full] [--esdb <connection string>] [--fixture file.json] [--seed text]
                    [--admin-token token] [--frozen-at <unix seconds>] [--node-id name] [--empty]
                    [--allow-host name]... [--allow-remote] [--reject-replays]
  custody-sim export [--data-dir ./.custody-sim] [--seed text] [--out file]
  custody-sim replay <file> [--data-dir dir | --store memory] [--until position] [--json]
  custody-sim audit <file | --data-dir dir> [--as-of position:N|time:T] [--html report.html] [--json]
  custody-sim sign --key K --secret S --passphrase P --method GET --path /vaults [--body '{...}'] [--base-url URL]
`

const fail = (message: string): never => {
  process.stderr.write(`${message}\n\n${usage}`)
  process.exit(2)
}

const serve = async (argv: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8080" },
      store: { type: "string", default: "sqlite" },
      "data-dir": { type: "string", default: ".custody-sim" },
      durability: { type: "string", default: "normal" },
      esdb: { type: "string" },
      fixture: { type: "string" },
      seed: { type: "string" },
      "admin-token": { type: "string" },
      "frozen-at": { type: "string" },
      "node-id": { type: "string" },
      empty: { type: "boolean", default: false },
      "allow-host": { type: "string", multiple: true, default: [] },
      "allow-remote": { type: "boolean", default: false },
      "reject-replays": { type: "boolean", default: false },
    },
  })
  if (!isLoopback(values.host) && !values["allow-remote"])
    fail(`--host ${values.host} is not a loopback address: anyone who can reach it could use the simulator's keys; pass --allow-remote to listen there anyway`)
  if (!["memory", "sqlite", "esdb"].includes(values.store)) fail(`unknown --store ${values.store}`)
  if (!["normal", "full"].includes(values.durability)) fail(`unknown --durability ${values.durability}`)
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad --port ${values.port}`)
  if (values["node-id"] !== undefined && !NODE_ID.test(values["node-id"])) fail(`bad --node-id ${values["node-id"]}: 1 to 64 of A-Z a-z 0-9 _ . -`)
  const fixture = values.fixture !== undefined ? loadFixture(readFileSync(values.fixture, "utf8")) : undefined
  const frozenAt = values["frozen-at"] !== undefined ? Number(values["frozen-at"]) * 1000 : undefined
  const store = await openStore({
    kind: values.store as StoreKind,
    dataDir: values["data-dir"],
    durability: values.durability as "normal" | "full",
    ...(values.esdb !== undefined ? { esdb: values.esdb } : {}),
  })
  // Nodes sharing an EventStoreDB need distinct ids (docs/eventstoredb.md): without --node-id, claim a free slot.
  const claim = values["node-id"] === undefined && values.store === "esdb"
    ? await Effect.runPromise(claimNodeSlot(store)).catch((e: unknown) => {
        process.stderr.write(`cannot claim a node id on the store (${e instanceof Error ? e.message : String(e)}); pass --node-id\n`)
        return process.exit(1)
      })
    : undefined
  const nodeId = values["node-id"] ?? claim?.nodeId ?? ""
  // Without --seed each install gets its own seed, so its own admin token and keys; kept where its log is.
  const seed =
    values.seed ??
    fixture?.seed ??
    (values.store === "sqlite" ? await Effect.runPromise(dataDirSeed(values["data-dir"], store)) : values.store === "esdb" ? await Effect.runPromise(sharedStoreSeed(store)) : randomSeed())
  const sim = await createSimulator({
    store,
    seed,
    ...(values["admin-token"] !== undefined ? { adminToken: values["admin-token"] } : {}),
    ...(fixture !== undefined ? { fixture } : {}),
    ...(frozenAt !== undefined ? { clock: { frozenAt } } : {}),
    // --empty: no default workspace, e.g. to load a scenario through POST /_sim/import.
    defaultWorkspace: !values.empty,
    follow: values.store === "esdb",
    nodeId,
    // Webhook deliveries sign, write and read on their own thread, beside the API's event loop.
    webhooks: { thread: true },
  })
  sim.startTicker()
  const app = createApp(sim, { rejectReplays: values["reject-replays"] })
  const fetch = guardHosts(app.fetch, { bound: values.host, allowed: values["allow-host"] })
  if (!isLoopback(values.host)) process.stderr.write(`warning: listening on ${values.host}, beyond this machine: anyone who can reach it can use the simulator\n`)
  const server = serveHttp({ fetch, hostname: values.host, port }, (info) => {
    const host = info.family === "IPv6" ? `[${info.address}]` : info.address
    console.log(`admin token: ${sim.adminToken}`)
    for (const c of sim.createdCredentials) console.log(`api key: ${c.key}\napi secret: ${c.secret}\napi passphrase: ${c.passphrase}`)
    if (sim.createdCredentials.length > 0 && values.store === "sqlite") {
      const file = writeCredentialsFile(values["data-dir"], sim.adminToken, sim.createdCredentials)
      console.log(`credentials saved to ${file}`)
    }
    console.log(`store: ${values.store}, events: ${sim.models.position + 1n}`)
    if (values.store === "esdb" || nodeId !== "") console.log(`node id: ${JSON.stringify(nodeId)}`)
    console.log(`listening on http://${host}:${info.port}`)
  })
  const stop = () => {
    const release = claim === undefined ? Promise.resolve() : Effect.runPromise(Effect.ignore(claim.release))
    server.close(() => void release.then(() => sim.close()).then(() => process.exit(0)))
    setTimeout(() => process.exit(0), 3000).unref()
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

const sign = (argv: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      key: { type: "string" },
      secret: { type: "string" },
      passphrase: { type: "string" },
      method: { type: "string", default: "GET" },
      path: { type: "string" },
      body: { type: "string", default: "" },
      "base-url": { type: "string", default: "http://127.0.0.1:8080" },
      "api-version": { type: "string" },
    },
  })
  if (values.key === undefined || values.secret === undefined || values.passphrase === undefined || values.path === undefined)
    fail("sign needs --key, --secret, --passphrase and --path")
  const method = values.method.toUpperCase()
  const headers = signRequest(
    { key: values.key!, secret: values.secret!, passphrase: values.passphrase! },
    { method, url: values.path!, body: values.body, ...(values["api-version"] !== undefined ? { apiVersion: values["api-version"] } : {}) },
  )
  for (const [k, v] of Object.entries(headers)) console.log(`${k}: ${v}`)
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const parts = ["curl", "-sS", "-X", method, ...Object.entries(headers).flatMap(([k, v]) => ["-H", quote(`${k}: ${v}`)])]
  if (values.body.length > 0) parts.push("--data-raw", quote(values.body))
  parts.push(quote(values["base-url"].replace(/\/$/, "") + values.path!))
  console.log(parts.join(" "))
}

const [command, ...rest] = process.argv.slice(2)
switch (command) {
  case "serve":
    await serve(rest)
    break
  case "sign":
    sign(rest)
    break
  case "export":
    await (await import("./cli/export.js")).run(rest)
    break
  case "replay":
    await (await import("./cli/replay.js")).run(rest)
    break
  case "audit":
    await (await import("./cli/audit.js")).run(rest)
    break
  case undefined:
  case "help":
  case "--help":
    process.stdout.write(usage)
    break
  default:
    fail(`unknown command ${command}`)
}
