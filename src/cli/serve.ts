// `custody-sim serve`: binds the port first, then opens the store and starts the simulator, so that a busy port
// or a locked data directory fails before anything is written (requests that come meanwhile wait, early-requests.ts);
// a start that fails after the bind closes everything and exits; every start prints the credentials.
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { createWorldsApp, type AppOptions } from "../api/app.js"
import { DEFAULT_FAILURE_LIMIT, parseFailureLimit } from "../api/auth/failure-limit.js"
import { guardHosts, isLoopback } from "../api/host-guard.js"
import { nodeListener } from "../api/node-listener.js"
import { readCredentialsFile, writeCredentialsFile, type CredentialsFile } from "../workspace/credentials-file.js"
import { loadFixture } from "./fixture.js"
import { parseFaults, setFaults } from "./faults.js"
import { NODE_ID } from "../adapters/ids.js"
import { claimNodeSlot } from "../adapters/node-claim.js"
import { dataDirSeed, randomSeed, sharedStoreSeed } from "../workspace/seed.js"
import { loggedResponse, type LogFormat } from "./request-log.js"
import { openStore, type OpenedStore, type StoreKind } from "../adapters/stores.js"
import { createSimulator, type Fixture, type Simulator } from "../simulator.js"
import { CliFailure, UsageError } from "./failure.js"
import { holdEarlyRequests } from "./early-requests.js"
import { commandName, npmSwallowedFlags, stoppedLine } from "./start-lines.js"
import { createWorlds, type Worlds } from "../worlds/registry.js"
import { filedWorlds } from "../worlds/saved.js"
import { openWorldFiles } from "../adapters/world-files.js"
import { join } from "node:path"

export interface ServeOptions {
  readonly host: string
  readonly port: string
  readonly store: StoreKind
  readonly dataDir: string
  readonly durability: "normal" | "full"
  readonly checkpointEvery: string
  readonly webhookHandover: string
  readonly esdb?: string
  readonly fixture?: string
  readonly seed?: string
  readonly adminToken?: string
  readonly frozenAt?: string
  readonly nodeId?: string
  readonly empty?: boolean
  readonly maxWorlds: string
  readonly worldTtl?: string
  readonly allowHost?: ReadonlyArray<string>
  readonly allowRemote?: boolean
  readonly rejectReplays?: boolean
  readonly authFailureLimit?: string
  readonly logFormat: LogFormat
  readonly quiet?: boolean
  readonly fault?: ReadonlyArray<string>
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!

const readFixture = (file: string): Fixture => {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (e) {
    throw new CliFailure(`cannot read fixture ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : messageOf(e)}`)
  }
  try {
    return loadFixture(text)
  } catch (e) {
    throw new CliFailure(`fixture ${file}: ${messageOf(e).replace(/^fixture: /, "")}`)
  }
}

const listen = (server: Server, port: number, host: string): Promise<AddressInfo> =>
  new Promise((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        new CliFailure(
          e.code === "EADDRINUSE"
            ? `port ${port} on ${host} is already in use (another custody-sim serve?): pass --port or CUSTODY_SIM_PORT`
            : e.code === "EACCES"
              ? `not allowed to listen on ${host}:${port}: pass a port above 1023`
              : `cannot listen on ${host}:${port}: ${e.message}`,
        ),
      ),
    )
    server.listen(port, host, () => resolve(server.address() as AddressInfo))
  })

const storeFailure = (o: ServeOptions, e: unknown): CliFailure => {
  const m = messageOf(e)
  if (o.store === "sqlite" && /database is locked|SQLITE_BUSY/i.test(m))
    return new CliFailure(
      `data dir ${o.dataDir} is in use by another custody-sim process (its event log is locked): stop it or pass another --data-dir`,
    )
  if (o.store === "sqlite") return new CliFailure(`cannot open the event log in ${o.dataDir}: ${m}`)
  if (o.store === "esdb") return new CliFailure(`cannot use EventStoreDB at ${o.esdb}: ${m}`)
  return new CliFailure(`cannot open the ${o.store} store: ${m}`)
}

const savedCredentials = (dataDir: string): CredentialsFile | undefined => {
  try {
    return readCredentialsFile(dataDir)
  } catch (e) {
    throw new CliFailure(
      `cannot read the credentials of ${dataDir}: ${messageOf(e)} (move it aside to start afresh; its keys stay in the event log)`,
    )
  }
}

/** The credentials file after this start: what was saved before, plus the keys created now, the vaults and the URL. */
const credentialsAfterStart = (sim: Simulator, url: string, saved: CredentialsFile | undefined): CredentialsFile => {
  return {
    adminToken: sim.adminToken,
    apiKeys: [...(saved?.apiKeys ?? []), ...sim.createdCredentials],
    vaults: sim.models.workspace.vaultList(undefined).map((v) => ({ id: v.profile.vaultId, name: v.profile.name, type: v.profile.type })),
    url,
  }
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** The options checked before anything is bound or opened (a usage error exits 2), as the start needs them. */
const checkedOptions = (o: ServeOptions) => {
  const swallowed = npmSwallowedFlags()
  if (swallowed !== undefined) throw swallowed
  if (!isLoopback(o.host) && o.allowRemote !== true)
    throw new UsageError(
      `--host ${o.host} is not a loopback address: anyone who can reach it could use the simulator's keys; pass --allow-remote to listen there anyway`,
    )
  const port = Number(o.port)
  if (!/^[0-9]+$/.test(o.port) || port > 65535) throw new UsageError(`--port must be 0 to 65535, not ${o.port}`)
  if (o.nodeId !== undefined && !NODE_ID.test(o.nodeId)) throw new UsageError(`--node-id ${o.nodeId}: 1 to 64 of A-Z a-z 0-9 _ . -`)
  if (o.frozenAt !== undefined && !/^[0-9]{1,12}$/.test(o.frozenAt))
    throw new UsageError(`--frozen-at must be UNIX seconds, not ${o.frozenAt}`)
  if (!/^[0-9]{1,9}$/.test(o.checkpointEvery))
    throw new UsageError(`--checkpoint-every must be a number of events (0: never), not ${o.checkpointEvery}`)
  const checkpointEvery = Number(o.checkpointEvery)
  if (!/^[0-9]{3,9}$/.test(o.webhookHandover))
    throw new UsageError(`--webhook-handover must be milliseconds (100 or more), not ${o.webhookHandover}`)
  const authFailureLimit =
    o.authFailureLimit === undefined ? (isLoopback(o.host) ? false : DEFAULT_FAILURE_LIMIT) : parseFailureLimit(o.authFailureLimit)
  if (authFailureLimit === undefined)
    throw new UsageError(`--auth-failure-limit must be <per second>/<burst> (say 1/10) or off, not ${o.authFailureLimit}`)
  if (o.store === "esdb" && o.esdb === undefined) throw new UsageError("--store esdb needs --esdb <connection string>")
  if (!/^[0-9]{1,7}$/.test(o.maxWorlds)) throw new UsageError(`--max-worlds must be a number of worlds, not ${o.maxWorlds}`)
  if (o.worldTtl !== undefined && !/^[1-9][0-9]{0,8}$/.test(o.worldTtl))
    throw new UsageError(`--world-ttl must be seconds (1 or more), not ${o.worldTtl}`)
  const fixture = o.fixture !== undefined ? readFixture(o.fixture) : undefined
  return { port, checkpointEvery, authFailureLimit, fixture, faults: parseFaults(o.fault ?? []) }
}

/** What a start prints: the credentials, where they are saved, the vaults, the store, and how to begin. */
const startLines = (
  o: ServeOptions,
  sim: Simulator,
  credentials: CredentialsFile,
  {
    url,
    nodeId,
    savedTo,
    reopened,
  }: { readonly url: string; readonly nodeId: string; readonly savedTo: string | undefined; readonly reopened: number },
): Array<string> => {
  const lines = [`admin token: ${sim.adminToken}`]
  for (const c of credentials.apiKeys) {
    lines.push(`api key: ${c.key}`, `api secret: ${c.secret}`, `api passphrase: ${c.passphrase}`)
    const version = sim.models.workspace.apiKeys.get(c.key)?.grant.apiVersion
    if (version !== undefined) lines.push(`api version: ${version}`)
  }
  if (credentials.apiKeys.length > 0)
    lines.push(
      `(a key keeps its version; another: a fixture key's "apiVersion" on a new data dir, or x-api-version on a request, ${commandName()} call --api-version)`,
    )
  if (savedTo !== undefined)
    lines.push(
      `credentials ${sim.createdCredentials.length > 0 ? "saved to" : "from"} ${savedTo} (${commandName()} credentials prints them)`,
    )
  for (const v of sim.models.workspace.vaultList(undefined)) lines.push(`vault ${v.profile.type}: ${v.profile.vaultId} (${v.profile.name})`)
  lines.push(
    `store: ${o.store}, events: ${sim.models.timeline.count}${sim.restoredFrom !== undefined ? ` (read models from the checkpoint at position ${sim.restoredFrom})` : ""}`,
  )
  if (o.store === "esdb" || nodeId !== "") lines.push(`node id: ${JSON.stringify(nodeId)}`)
  if (reopened > 0) lines.push(`worlds: ${reopened} reopened from ${join(o.dataDir, "worlds")} (GET /_sim/worlds lists them)`)
  const first = credentials.apiKeys[0]
  if (first !== undefined) {
    const args =
      o.store === "sqlite"
        ? o.dataDir === ".custody-sim"
          ? []
          : ["--data-dir", o.dataDir]
        : ["--url", url, "--key", first.key, "--secret", first.secret, "--passphrase", first.passphrase]
    lines.push(`try: ${commandName()} call GET /vaults ${args.map(quote).join(" ")}`.trimEnd())
  }
  lines.push(`API reference: ${url}/docs`)
  lines.push(`audit report: ${url}/_sim/audit?token=${encodeURIComponent(sim.adminToken)}`)
  lines.push(`listening on ${url}`)
  return lines
}

/** What SIGINT and SIGTERM do: stop serving, release the node's slot, close the simulator, say what was saved, exit 0. */
const stopper =
  (
    o: ServeOptions,
    server: Server,
    sim: Simulator,
    {
      release,
      checkpointEvery,
      savedTo,
      worlds,
    }: {
      readonly release: () => Promise<void>
      readonly checkpointEvery: number
      readonly savedTo: string | undefined
      readonly worlds: Worlds
    },
  ) =>
  (): void => {
    let events = 0
    const served = new Promise<void>((resolve) => server.close(() => resolve()))
    const late = new Promise<void>((resolve) => setTimeout(resolve, 3000).unref())
    void Promise.race([served, late])
      .then(release)
      .then(worlds.close)
      .then(() => {
        events = sim.models.timeline.count
        return sim.close()
      })
      .then(() => {
        const checkpoints = o.store === "sqlite" && checkpointEvery > 0
        process.stdout.write(
          `${stoppedLine({ store: o.store, dataDir: o.dataDir, ...(o.esdb !== undefined ? { esdb: o.esdb } : {}), events, checkpoints, ...(savedTo !== undefined ? { credentials: savedTo } : {}) })}\n`,
        )
      })
      .finally(() => process.exit(0))
  }

/** After a failed start: the server closed (its connections too), then the simulator, or the store it did not get, and the node's slot. */
const closeAll = async (server: Server, sim: Simulator | undefined, store: OpenedStore | undefined, release: () => Promise<void>) => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeAllConnections()
  await closed
  if (sim !== undefined) await sim.close().catch(() => {})
  else await store?.close?.()
  await release()
}

/** Why an EventStoreDB server refuses worlds (docs/worlds.md, "Stores"). */
export const ESDB_WORLDS_UNSUPPORTED =
  "Worlds are not supported on serve --store esdb yet: its nodes share one log, and a world would need a stream prefix of its own that every node follows. Use --store sqlite (each world its own file, kept across restarts) or --store memory."

/**
 * The server's worlds (docs/worlds.md): its own simulator and those POST /_sim/worlds creates; on a memory store each
 * in memory, on sqlite each its own log under <data-dir>/worlds/, reopened by the next start (restore).
 */
const serverWorlds = (o: ServeOptions, sim: Simulator, fixture: Fixture | undefined, app: AppOptions): Worlds =>
  createWorlds({
    server: sim,
    ...(fixture !== undefined ? { serverFixture: fixture } : {}),
    app,
    maxWorlds: Number(o.maxWorlds),
    ...(o.worldTtl !== undefined ? { ttlMs: Number(o.worldTtl) * 1000 } : {}),
    ...(o.store === "sqlite" ? { storage: filedWorlds(openWorldFiles(join(o.dataDir, "worlds"), { durability: o.durability })) } : {}),
    ...(o.store === "esdb" ? { unsupported: ESDB_WORLDS_UNSUPPORTED } : {}),
  })

/**
 * Without --seed each install gets its own seed, so its own admin token and keys; kept where its log is, with the
 * seed it was created with when one was given.
 */
const startSeed = async (o: ServeOptions, store: OpenedStore, fixture: Fixture | undefined): Promise<string> => {
  const given = o.seed ?? fixture?.seed
  if (o.store === "sqlite") return Effect.runPromise(dataDirSeed(o.dataDir, store, given))
  return given ?? (o.store === "esdb" ? Effect.runPromise(sharedStoreSeed(store)) : randomSeed())
}

export const serve = async (o: ServeOptions): Promise<void> => {
  const { port, checkpointEvery, authFailureLimit, fixture, faults } = checkedOptions(o)

  const server = o.quiet === true ? createServer() : createServer({ ServerResponse: loggedResponse({ format: o.logFormat }) })
  const early = holdEarlyRequests(server)
  const address = await listen(server, port, o.host)
  let store: OpenedStore | undefined
  let sim: Simulator | undefined
  let worlds: Worlds | undefined
  let reopened = 0
  let release: () => Promise<void> = async () => {}
  let nodeId = o.nodeId ?? ""
  let credentials: CredentialsFile
  let savedTo: string | undefined
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}`
  try {
    store = await openStore({
      kind: o.store,
      dataDir: o.dataDir,
      durability: o.durability,
      ...(o.esdb !== undefined ? { esdb: o.esdb } : {}),
    }).catch((e: unknown) => {
      throw storeFailure(o, e)
    })
    // Nodes sharing an EventStoreDB need distinct ids (docs/eventstoredb.md): without --node-id, claim a free slot.
    if (o.nodeId === undefined && o.store === "esdb") {
      const claim = await Effect.runPromise(claimNodeSlot(store)).catch((e: unknown) => {
        throw new CliFailure(`cannot claim a node id on the store (${messageOf(e)}): pass --node-id`)
      })
      nodeId = claim.nodeId
      release = () => Effect.runPromise(Effect.ignore(claim.release))
    }
    // Read before anything is created: a damaged file fails the start, and the admin token a data directory was
    // created with (--admin-token, a fixture's) is kept by a restart without them.
    const saved = o.store === "sqlite" ? savedCredentials(o.dataDir) : undefined
    const seed = await startSeed(o, store, fixture)
    const adminToken = o.adminToken ?? saved?.adminToken
    sim = await createSimulator({
      store,
      seed,
      ...(adminToken !== undefined ? { adminToken } : {}),
      ...(fixture !== undefined ? { fixture } : {}),
      // On a data directory the clock resumes where it stood (README: "Restarts and the clock").
      clock: {
        ...(o.frozenAt !== undefined ? { frozenAt: Number(o.frozenAt) * 1000 } : {}),
        ...(o.store === "sqlite" ? { dataDir: o.dataDir } : {}),
      },
      // --empty: no default workspace, e.g. to load a scenario through POST /_sim/import.
      defaultWorkspace: o.empty !== true,
      follow: o.store === "esdb",
      nodeId,
      // Webhook deliveries sign, write and read on their own thread, beside the API's event loop.
      // On EventStoreDB each delivery is attempted by one node: the store's persistent subscriptions share them out.
      webhooks: {
        thread: true,
        ...(store.consumerGroups !== undefined
          ? { shared: { groups: store.consumerGroups, messageTimeoutMs: Number(o.webhookHandover) } }
          : {}),
      },
      ...(o.store === "sqlite" && checkpointEvery > 0 ? { checkpoints: { dir: o.dataDir, every: checkpointEvery } } : {}),
      ...(o.store === "sqlite" ? { faultCallsDir: o.dataDir } : {}),
    }).catch((e: unknown) => {
      throw e instanceof CliFailure ? e : storeFailure(o, e)
    })
    await setFaults(sim, faults)
    // Saved before anything is printed or served: the passphrase of a key created now exists nowhere else.
    credentials = { adminToken: sim.adminToken, apiKeys: sim.createdCredentials }
    if (o.store === "sqlite") {
      credentials = credentialsAfterStart(sim, url, saved)
      savedTo = writeCredentialsFile(o.dataDir, credentials)
    }
    worlds = serverWorlds(o, sim, fixture, { rejectReplays: o.rejectReplays === true, authFailureLimit })
    reopened = await worlds.restore().catch((e: unknown) => {
      throw new CliFailure(`cannot reopen the worlds of ${o.dataDir}: ${messageOf(e)}`)
    })
    const fetch = guardHosts(createWorldsApp(worlds.routing).fetch, {
      bound: o.host,
      allowed: o.allowHost ?? [],
    })
    early.ready(nodeListener(fetch, { hostname: o.host }))
  } catch (e) {
    // Nothing may hold the port or the process after a failed start: the requests held are answered 503, the
    // server, the simulator (its webhook thread, its checkpoints) and the store are closed, and the command exits.
    early.failed()
    await closeAll(server, sim, store, release)
    throw e
  }
  sim.startTicker()
  if (!isLoopback(o.host))
    process.stderr.write(`warning: listening on ${o.host}, beyond this machine: anyone who can reach it can use the simulator\n`)

  process.stdout.write(`${startLines(o, sim, credentials, { url, nodeId, savedTo, reopened }).join("\n")}\n`)

  // Connections still open after 3 s are not waited for; closing the simulator (its last checkpoint) is.
  const stop = stopper(o, server, sim, { release, checkpointEvery, savedTo, worlds })
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}
