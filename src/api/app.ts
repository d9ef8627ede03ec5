// The Hono app: the spec's REST surface and the /_sim control plane over one simulator.
import type { IncomingMessage } from "node:http"
import { Context, Hono } from "hono"
import type { Simulator } from "../runtime/simulator.js"
import { makeRateLimiter } from "./auth/rate-limit.js"
import { makeReplayGuard } from "./auth/authenticate.js"
import { DEFAULT_FAILURE_LIMIT, makeFailureLimiter, type FailureLimit } from "./auth/failure-limit.js"
import { requestAborted } from "./request-body.js"
import { markWorld } from "./world-mark.js"
import { makeAuthorizer } from "./auth/authorize.js"
import type { ApiDeps, DepsOf, Logger } from "./deps.js"
import { readsOf } from "./reads.js"
import { consistency } from "./consistency.js"
import { API_VERSIONS, errorBody } from "./envelope.js"
import { errors } from "./errors.js"
import { mount, type Operation } from "./operation.js"
import { respond } from "./respond.js"
import { OperationRouter } from "./router.js"
import { defaultOperations } from "./operations.js"
import { controlPlaneDocument } from "./openapi.js"
import { mountDocuments, openApiRoute } from "./documents.js"
import { mountSim, simBodies, type SimRoute } from "./sim/common.js"
import { logRoutes } from "./sim/log.js"
import { chainRoutes } from "./sim/chains.js"
import { transactionRequestSimRoutes } from "./sim/transaction-requests.js"
import { settingsRoutes } from "./sim/settings.js"
import { faultRoutes } from "./sim/faults.js"
import { workspaceRoutes } from "./sim/workspace.js"
import { auditRoutes } from "./sim/audit.js"
import { historyRoutes } from "./sim/history.js"
import { scenarioRoutes } from "./sim/scenario.js"
import { webhookRoutes } from "./sim/webhooks.js"
import { dashboardSimRoutes, makeSessions, mountDashboard, type Sessions } from "./dashboard/index.js"
import { snapshotRoutes } from "./sim/snapshots.js"
import { mountChainViews } from "./chain-views/index.js"

export interface AppOptions {
  /** Server time for the signature's timestamp window, UNIX ms (default: the wall clock). */
  readonly wallNow?: () => number
  /** Where the caller's IP comes from (default: the socket's remote address under @hono/node-server). */
  readonly clientIp?: (c: Context) => string | undefined
  readonly apiVersions?: ReadonlyArray<string>
  /** Largest accepted request body, bytes (default 1 MiB). */
  readonly bodyLimit?: number
  readonly log?: Logger
  /** Failed authentications allowed per (client address, key) pair (default DEFAULT_FAILURE_LIMIT); false: no limit. */
  readonly authFailureLimit?: FailureLimit | false
  /** Refuse a second request with the same signature within the timestamp window (default false). */
  readonly rejectReplays?: boolean
  /** Extra operations and control-plane routes (subsystems add theirs). */
  readonly operations?: ReadonlyArray<Operation>
  readonly simRoutes?: ReadonlyArray<SimRoute>
  /** Serve the dashboard at /ui and accept its session cookie on the control plane (default true). */
  readonly dashboard?: boolean
}

/**
 * One Hono Context kept for the process's life. V8 keeps an object shape (hidden class) only while an object or
 * optimised code uses it, and no Context outlives its request: a full collection could drop the Context shapes, the
 * constructor's field initialiser then met them anew (its inline caches changing), and V8, which optimises a function
 * only once its type feedback holds still for a while, kept it unoptimised (`node --trace-opt-verbose`: "resetting
 * ticks for <instance_members_initializer> … due to IC change"). It then took 5–12% of a signed read's server CPU,
 * depending on how often the collector ran. This Context holds the shapes, and the initialiser is optimised. It is
 * exported, though nothing imports it, so that V8 keeps the binding (and the object) in the module's context.
 * @public
 */
export const keptContextShape = new Context(new Request("http://localhost/"))

const socketIp = (c: Context): string | undefined => {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
  return incoming?.socket?.remoteAddress
}

const consoleLogger: Logger = {
  error: (entry) =>
    console.error(
      JSON.stringify(entry, (_k, v) =>
        typeof v === "bigint" ? v.toString() : v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v,
      ),
    ),
  info: (message) => console.log(message),
}

export { defaultOperations }
export const defaultSimRoutes: ReadonlyArray<SimRoute> = [
  ...logRoutes,
  ...workspaceRoutes,
  ...settingsRoutes,
  ...faultRoutes,
  ...chainRoutes,
  ...transactionRequestSimRoutes,
  ...webhookRoutes,
  ...historyRoutes,
  ...scenarioRoutes,
  ...auditRoutes,
  ...snapshotRoutes,
]

/** A world's own edge services: its rate limits, replay guard, failure counts and request ids, over its simulator. */
const worldDeps = (sim: Simulator, options: AppOptions, sessions: Sessions | undefined): ApiDeps => {
  let requests = 0
  const boot = sim.clock.now()
  // Nodes sharing a store boot at the same instant under a frozen clock: the node id keeps their request ids apart.
  const requestPrefix = Buffer.from(sim.ids.bytes(`requests${sim.ids.node === "" ? "" : `@${sim.ids.node}`}:${boot}`, 8)).toString("hex")
  return {
    sim,
    reads: readsOf(sim),
    auth: {
      wallNow: options.wallNow ?? (() => Date.now()),
      rateLimiter: makeRateLimiter(),
      cache: new WeakMap(),
      ...(options.rejectReplays === true ? { replays: makeReplayGuard(options.wallNow ?? (() => Date.now())) } : {}),
    },
    authorize: makeAuthorizer(),
    clientIp: options.clientIp ?? socketIp,
    // A per-boot prefix (seed, node, boot time) and a counter: unique per request, replayable per seed, and cheap.
    nextRequestId: () => requestPrefix + (++requests).toString(16).padStart(8, "0"),
    defaultApiVersion: (options.apiVersions ?? API_VERSIONS)[0]!,
    apiVersions: options.apiVersions ?? API_VERSIONS,
    log: options.log ?? consoleLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    ...(sessions !== undefined ? { adminSession: sessions.admit } : {}),
    authFailures: options.authFailureLimit === false ? undefined : makeFailureLimiter(options.authFailureLimit ?? DEFAULT_FAILURE_LIMIT),
  }
}

/** The route table, over the deps of the world each request is for (`depsOf`); the dashboard's with `sessions`. */
const routes = (depsOf: DepsOf, options: AppOptions, sessions: Sessions | undefined): Hono => {
  const app = new Hono({ router: new OperationRouter() })
  // The spec's operations check the body limit and the consistency headers themselves (operation.ts): a
  // middleware layer costs every request.
  app.use("/_sim/*", simBodies(depsOf))
  app.use("/_sim/*", consistency(depsOf))
  const simRoutes = [...defaultSimRoutes, ...(sessions !== undefined ? dashboardSimRoutes : []), ...(options.simRoutes ?? [])]
  const operations = [...defaultOperations, ...(options.operations ?? [])]
  for (const route of [...simRoutes, openApiRoute(() => controlPlaneDocument(simRoutes))]) mountSim(app, depsOf, route)
  if (sessions !== undefined) mountDashboard(app, depsOf, sessions)
  mountChainViews(app, depsOf)
  for (const op of operations) mount(app, depsOf, op, operations)
  mountDocuments(app, depsOf, operations, sessions !== undefined)
  app.notFound((c) => {
    const deps = depsOf(c)
    const e = errors.uriNotFound()
    return respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), c.req.query("context"), e))
  })
  app.onError((err, c) => {
    const deps = depsOf(c)
    if (requestAborted(c)) deps.log.info(`${c.req.method} ${c.req.path}: request body aborted by the client`)
    else deps.log.error({ defect: err, path: c.req.path })
    const e = errors.internal()
    return respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), undefined, e))
  })
  // Every request that reads or changes the world runs inside the simulator's gate, so that a snapshot, revert or
  // reset lands between requests, never inside one. Each route enters it itself (operation.ts, sim/common.ts), once
  // the request has its body: a request still receiving one holds nothing back, and the routes that replace the
  // world (replacesWorld) never enter it, since they wait for the others in it.
  return app
}

export const createApp = (sim: Simulator, options: AppOptions = {}): Hono => {
  const sessions = options.dashboard === false ? undefined : makeSessions()
  const deps = worldDeps(sim, options, sessions)
  return routes(() => deps, options, sessions)
}

export type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>

/** Where a world's request carries its deps to the shared route table: a key of the request's env. */
const WORLD_DEPS = Symbol("custody-sim.world-deps")

/** The apps of a server's worlds (src/worlds/): each answers as `createApp(sim, { ...options, dashboard: false })`. */
export interface WorldApps {
  /** A world's app: its own deps (rate limits, request ids, read caches), the route table every world shares. */
  readonly serve: (sim: Simulator) => Fetch
}

/**
 * One route table for every world: the routes depend on the options alone, and each request brings its world's
 * deps in its env. A world then costs its deps to create and keep, not a Hono app with a router and a handler per
 * route; what each operation keeps per world (its read cache) is made on the world's first request to it.
 */
export const createWorldApps = (options: AppOptions = {}): WorldApps => {
  const shared = routes((c) => (c.env as { [WORLD_DEPS]: ApiDeps })[WORLD_DEPS], options, undefined)
  return {
    serve: (sim) => {
      const deps = worldDeps(sim, options, undefined)
      return (request, env) => shared.fetch(request, { ...(env as object | undefined), [WORLD_DEPS]: deps })
    },
  }
}

/** A world as createWorldsApp routes to it: its id (for the request log) and its app's fetch. */
export interface RoutedWorld {
  readonly id: string
  readonly fetch: Fetch
}

/** How createWorldsApp finds the world a request is for (src/worlds/ keeps them). */
export interface WorldRouting {
  /** The server's own world: requests without credentials, or with credentials no world holds. */
  readonly server: RoutedWorld
  /** The world holding an API key, and marks it used (its idle time starts again). */
  readonly byKey: (key: string) => RoutedWorld | undefined
  /** The world whose admin token this is, marked used. */
  readonly byToken: (token: string) => RoutedWorld | undefined
}

type NodeHeaders = Record<string, string | Array<string> | undefined>
type NodeEnv = { incoming?: IncomingMessage & { headers?: NodeHeaders } } | undefined

const serverTokenOnly = () =>
  Response.json(
    { error: { code: "server_admin_token_required", message: "/_sim/worlds takes the server's admin token, not a world's." } },
    { status: 403 },
  )

/**
 * Many worlds behind one listener (docs/worlds.md): each request goes to the world its credentials name, a REST
 * request by its x-api-key, the control plane by its Bearer admin token (or the `?token=` of a linked page), and
 * anything else to the server's world. Every world answers as an app of its own (createApp, createWorldApps): its
 * rate limits, request ids, fault counters and read caches are its own. /_sim/worlds is the server world's alone.
 */
export const createWorldsApp = (routing: WorldRouting): { readonly fetch: Fetch } => {
  const header = (request: Request, env: NodeEnv, name: string): string | undefined => {
    // Node's own header object under @hono/node-server: no Fetch Headers built to route.
    const incoming = env?.incoming?.headers
    const v = incoming !== undefined ? incoming[name] : (request.headers.get(name) ?? undefined)
    return typeof v === "string" ? v : undefined
  }
  const worldOf = (request: Request, env: NodeEnv): RoutedWorld | undefined => {
    const auth = header(request, env, "authorization")
    if (auth?.startsWith("Bearer ") === true) return routing.byToken(auth.slice(7))
    const key = header(request, env, "x-api-key")
    if (key !== undefined) return routing.byKey(key)
    const q = request.url.indexOf("token=")
    if (q < 0) return undefined
    const token = new URL(request.url).searchParams.get("token")
    return token === null ? undefined : routing.byToken(token)
  }
  return {
    fetch: (request, env) => {
      const world = worldOf(request, env as NodeEnv)
      if (world === undefined || world === routing.server) return routing.server.fetch(request, env)
      const url = request.url
      if (url.startsWith("/_sim/worlds", url.indexOf("/", url.indexOf("//") + 2))) return serverTokenOnly()
      const incoming = (env as NodeEnv)?.incoming
      if (incoming !== undefined) markWorld(incoming, world.id)
      return world.fetch(request, env)
    },
  }
}
