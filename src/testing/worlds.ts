// `sim.world(fixture?)`: one more world in an in-process simulator (docs/worlds.md), made through POST /_sim/worlds
// with the simulator's admin token, and its handle: a client signing with its key, its own control-plane calls,
// and close() to end it.
import type { CreatedWorld, WorldCredentials } from "../api/sim/worlds.js"
import type { Fixture } from "../simulator.js"
import type { Worlds } from "../worlds/registry.js"
import { type AdminResponse, type InProcessFetch, type WorldHandle, worldHandle } from "./world-handle.js"

/** One more world in the same in-process simulator (docs/worlds.md), from `sim.world(fixture?)`. */
export interface InProcessWorld extends WorldHandle {
  readonly id: string
  readonly adminToken: string
  /** The keys it was created with, secrets included (`credentials` is the first). */
  readonly apiKeys: ReadonlyArray<WorldCredentials>
  /** Ends the world (DELETE /_sim/worlds/{id}): its keys then answer 401, its pending deliveries are cancelled. */
  readonly close: () => Promise<void>
}

interface Host {
  readonly fetch: InProcessFetch
  readonly baseUrl: string
  readonly worlds: Worlds
  /** The control plane with the simulator's own admin token. */
  readonly admin: <T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) => Promise<AdminResponse<T>>
}

const refused = (what: string, r: AdminResponse<unknown>) =>
  new Error(`${what}: ${r.status} ${typeof r.body === "string" ? r.body : JSON.stringify(r.body)}`)

export const newWorld = async (host: Host, fixture: Fixture | undefined): Promise<InProcessWorld> => {
  const made = await host.admin<CreatedWorld>("POST", "/_sim/worlds", fixture === undefined ? {} : { fixture })
  if (made.status !== 201) throw refused("sim.world()", made)
  const created = made.body
  const sim = host.worlds.world(created.id)?.sim
  if (sim === undefined) throw new Error(`sim.world(): world ${created.id} was created but is not there`)
  const first = created.apiKeys[0]
  // The world's simulator holds the world's admin token: its handle's control-plane calls are the world's.
  const handle = worldHandle(sim, {
    fetch: host.fetch,
    baseUrl: host.baseUrl,
    credentials: first === undefined ? undefined : { key: first.key, secret: first.secret, passphrase: first.passphrase },
  })
  let closed = false
  return {
    ...handle,
    id: created.id,
    adminToken: created.adminToken,
    apiKeys: created.apiKeys,
    close: async () => {
      if (closed) return
      closed = true
      const r = await host.admin("DELETE", `/_sim/worlds/${created.id}`)
      // Gone already: the simulator closed, or the world expired.
      if (r.status !== 200 && r.status !== 404) throw refused(`closing world ${created.id}`, r)
    },
  }
}
