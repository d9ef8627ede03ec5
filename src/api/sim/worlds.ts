// Control plane: /_sim/worlds, the server's worlds (docs/worlds.md). Only the server's own admin token reaches these
// routes (createWorldsApp sends them to the server's world); a world's registry implements WorldsControl.
import type { Fixture } from "../../workspace/bootstrap.js"
import { ApiError, isApiError } from "../errors.js"
import { checkFixture } from "./fixture.js"
import { type SimRoute, simRoute } from "./common.js"

export interface WorldCredentials {
  readonly key: string
  readonly secret: string
  readonly passphrase: string
  readonly apiVersion: string
}

/** What POST /_sim/worlds answers: the world's id, its credentials and its vaults. */
export interface CreatedWorld {
  readonly id: string
  readonly adminToken: string
  readonly apiKeys: ReadonlyArray<WorldCredentials>
  readonly vaults: ReadonlyArray<{ readonly id: string; readonly name: string; readonly type: string }>
}

/** What GET /_sim/worlds/{id} answers: the world as listed, with the credentials it was created with. */
export interface WorldDetails extends WorldInfo {
  readonly adminToken: string
  readonly apiKeys: ReadonlyArray<WorldCredentials>
}

export interface WorldInfo {
  readonly id: string
  /** The server's own workspace (it cannot be deleted). */
  readonly server: boolean
  readonly created: string
  /** The position of its log's last event (-1 before the first). */
  readonly logHead: number
  readonly keys: ReadonlyArray<string>
}

/** Where a new world comes from: a fixture, or a copy of another world (now, or at one of its snapshots). */
export type WorldSource = { readonly fixture?: Fixture } | { readonly from: { readonly world: string; readonly snapshot?: string } }

export interface WorldsControl {
  readonly create: (source: WorldSource) => Promise<CreatedWorld | ApiError>
  readonly list: () => ReadonlyArray<WorldInfo>
  /** The admin token and the API keys a world was created with (the server's: those it started with). */
  readonly credentials: (id: string) => Pick<WorldDetails, "adminToken" | "apiKeys"> | undefined
  /** Ends a world: its keys answer 401, its pending webhook deliveries are cancelled. */
  readonly remove: (id: string) => Promise<true | ApiError>
}

const invalid = (attribute: string, message: string) => new ApiError(400, "invalid_world", message, [{ attribute, message }])

/** The body's source: `fixture` (checked as `serve --fixture` checks its file) or `from`, not both. */
const sourceOf = (body: Record<string, unknown>): WorldSource | ApiError => {
  const extra = Object.keys(body).filter((k) => k !== "fixture" && k !== "from")
  if (extra.length > 0) return invalid(extra[0]!, `${extra[0]} is not an attribute of a world (fixture, from)`)
  if (body.fixture !== undefined && body.from !== undefined)
    return invalid("from", "a world comes from a fixture or from another world, not both")
  if (body.from !== undefined) {
    const from = body.from as Record<string, unknown>
    if (typeof from !== "object" || from === null || Array.isArray(from) || typeof from.world !== "string")
      return invalid("from", "from must be { world, snapshot? }")
    const unknown = Object.keys(from).filter((k) => k !== "world" && k !== "snapshot")
    if (unknown.length > 0 || (from.snapshot !== undefined && typeof from.snapshot !== "string"))
      return invalid("from", "from must be { world, snapshot? } (strings)")
    return { from: { world: from.world, ...(typeof from.snapshot === "string" ? { snapshot: from.snapshot } : {}) } }
  }
  if (body.fixture === undefined) return {}
  try {
    return { fixture: checkFixture(body.fixture) }
  } catch (e) {
    return invalid("fixture", (e as Error).message)
  }
}

export const worldRoutes = (control: WorldsControl): ReadonlyArray<SimRoute> => {
  return [
    {
      method: "POST",
      path: "/_sim/worlds",
      // It reads no world: it builds a new one, outside the server world's gate.
      entersGateItself: true,
      handle: async ({ body }) => {
        const source = sourceOf(body)
        if (isApiError(source)) return source
        const created = await control.create(source)
        if (isApiError(created)) return created
        return { status: 201, body: created }
      },
    },
    {
      method: "GET",
      path: "/_sim/worlds",
      handle: () => ({ status: 200, body: { worlds: control.list() } }),
    },
    simRoute({
      method: "GET",
      path: "/_sim/worlds/:id",
      handle: ({ params }) => {
        const info = control.list().find((w) => w.id === params.id)
        const credentials = control.credentials(params.id)
        if (info === undefined || credentials === undefined)
          return new ApiError(404, "world_not_found", `No world ${JSON.stringify(params.id)}.`)
        return { status: 200, body: { ...info, ...credentials } satisfies WorldDetails }
      },
    }),
    simRoute({
      method: "DELETE",
      path: "/_sim/worlds/:id",
      entersGateItself: true,
      handle: async ({ params }) => {
        const removed = await control.remove(params.id)
        if (isApiError(removed)) return removed
        return { status: 200, body: { id: params.id, deleted: true } }
      },
    }),
  ]
}
