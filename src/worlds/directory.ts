// The worlds a server holds, found by id, admin token and API key.
import type { World } from "./world.js"

export class WorldDirectory {
  readonly #worlds = new Map<string, World>()
  readonly #byToken = new Map<string, World>()
  readonly #byKey = new Map<string, World>()

  constructor(readonly server: World) {
    this.#byToken.set(server.sim.adminToken, server)
  }

  /** The created worlds (the server's not among them). */
  get size(): number {
    return this.#worlds.size
  }

  created(): IterableIterator<World> {
    return this.#worlds.values()
  }

  all(): Array<World> {
    return [this.server, ...this.#worlds.values()]
  }

  get(id: string): World | undefined {
    return id === this.server.id ? this.server : this.#worlds.get(id)
  }

  byToken(token: string): World | undefined {
    return this.#byToken.get(token)
  }

  /** The world holding a key: the index first, then (a key created since, through /_sim/api-keys) every world. */
  byKey(key: string): World | undefined {
    const known = this.#byKey.get(key)
    if (known !== undefined) return known
    // A fork holds its source's keys revoked: the world where the key is in force comes first.
    const holders = this.all().filter((w) => w.sim.models.workspace.apiKeys.has(key))
    const holder = holders.find((w) => w.sim.models.workspace.apiKeys.get(key)?.revoked === false) ?? holders[0]
    if (holder !== undefined) this.#byKey.set(key, holder)
    return holder
  }

  add(w: World): void {
    this.#worlds.set(w.id, w)
    this.#byToken.set(w.sim.adminToken, w)
    for (const [k, record] of w.sim.models.workspace.apiKeys) if (!record.revoked) this.#byKey.set(k, w)
  }

  delete(w: World): void {
    this.#worlds.delete(w.id)
    this.#byToken.delete(w.sim.adminToken)
    for (const [key, holder] of this.#byKey) if (holder === w) this.#byKey.delete(key)
  }
}
