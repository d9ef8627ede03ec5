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
  options: { readonly fixture?: Fixture; readonly frozenAt?: number | null; readonly worlds?: Partial<WorldsOptions> } = {},
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
  const server = createServer(nodeListener(createWorldsApp(worlds.routing).fetch, { hostname: "127.0.0.1" }))
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
