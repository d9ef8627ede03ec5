// A server of worlds on 127.0.0.1 (port 0), as `serve --store memory` builds it: the server's simulator, its
// worlds (src/worlds/) and the app that routes each request to one; with signed and control-plane calls over undici.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { request } from "undici"
import { createWorldsApp } from "../../src/api/app.js"
import { nodeListener } from "../../src/api/node-listener.js"
import { signRequest, type Credentials } from "../../src/client/signing.js"
import { createSimulator, type Fixture, type Simulator } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { loggedResponse, type LogFormat } from "../../src/cli/request-log.js"
import { createWorlds, type Worlds, type WorldsOptions } from "../../src/worlds/registry.js"

export const T0 = Date.UTC(2026, 0, 1)

export interface Reply {
  readonly status: number
  readonly body: any
}

export interface WorldsServer {
  readonly url: string
  readonly sim: Simulator
  readonly worlds: Worlds
  readonly admin: (token: string, method: string, path: string, body?: unknown) => Promise<Reply>
  readonly signed: (creds: Credentials, method: string, path: string, item?: unknown) => Promise<Reply>
  readonly close: () => Promise<void>
}

export const call = async (url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> => {
  const res = await request(url + path, { method: method as "GET", headers, ...(body !== undefined ? { body } : {}) })
  const text = await res.body.text()
  return { status: res.statusCode, body: text.length === 0 ? undefined : JSON.parse(text) }
}

export const startWorldsServer = async (
  options: {
    readonly fixture?: Fixture
    readonly frozenAt?: number | null
    readonly worlds?: Partial<WorldsOptions>
    /** The request log, as serve writes it, handed to this function. */
    readonly log?: { readonly format: LogFormat; readonly write: (chunk: string) => void }
  } = {},
): Promise<WorldsServer> => {
  const frozenAt = options.frozenAt === null ? undefined : (options.frozenAt ?? T0)
  const sim = await createSimulator({
    store: makeMemoryStore(),
    ...(options.fixture !== undefined ? { fixture: options.fixture } : { seed: "worlds-server" }),
    clock: frozenAt !== undefined ? { frozenAt } : {},
    defaultWorkspace: true,
  })
  const worlds = createWorlds({
    server: sim,
    ...(options.fixture !== undefined ? { serverFixture: options.fixture } : {}),
    ...options.worlds,
  })
  const listener = nodeListener(createWorldsApp(worlds.routing).fetch, { hostname: "127.0.0.1" })
  const server =
    options.log === undefined ? createServer(listener) : createServer({ ServerResponse: loggedResponse(options.log) }, listener)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    sim,
    worlds,
    admin: (token, method, path, body) =>
      call(
        url,
        method,
        path,
        { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
        body === undefined ? undefined : JSON.stringify(body),
      ),
    signed: (creds, method, path, item) => {
      const body = item === undefined ? "" : JSON.stringify({ data: { item } })
      const headers = signRequest(creds, { method, url: path, body })
      return call(
        url,
        method,
        path,
        { ...headers, ...(body !== "" ? { "content-type": "application/json" } : {}) },
        method === "GET" ? undefined : body,
      )
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      await worlds.close()
      await sim.close()
    },
  }
}

/** What POST /_sim/worlds answered. */
export interface CreatedWorldBody {
  readonly id: string
  readonly adminToken: string
  readonly apiKeys: ReadonlyArray<Credentials & { readonly apiVersion: string }>
  readonly vaults: ReadonlyArray<{ readonly id: string; readonly name: string; readonly type: string }>
}

/** A world's handle on a server (for worlds-flow.ts), from what its creation answered. */
export const handleOf = (s: WorldsServer, w: CreatedWorldBody) => ({
  adminToken: w.adminToken,
  key: w.apiKeys[0]!,
  testVaultId: w.vaults.find((v) => v.type === "test")!.id,
  admin: (method: string, path: string, body?: unknown) => s.admin(w.adminToken, method, path, body),
  signed: (method: string, path: string, item?: unknown) => s.signed(w.apiKeys[0]!, method, path, item),
})

/** Creates a world (201 or throws) and answers its handle. */
export const newWorld = async (s: WorldsServer, body: Record<string, unknown> = {}) => {
  const r = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", body)
  if (r.status !== 201) throw new Error(`POST /_sim/worlds: ${r.status} ${JSON.stringify(r.body)}`)
  const created = r.body as CreatedWorldBody
  return { created, ...handleOf(s, created) }
}

/** The server's own world as a handle. */
export const serverHandle = (s: WorldsServer) =>
  handleOf(s, {
    id: "server",
    adminToken: s.sim.adminToken,
    apiKeys: s.sim.createdCredentials.map((c) => ({ ...c, apiVersion: "" })),
    vaults: s.sim.models.workspace.vaultList(undefined).map((v) => ({ id: v.profile.vaultId, name: v.profile.name, type: v.profile.type })),
  })
