// What route modules receive from the app: the simulator, its read side as the endpoints query it, and the edge
// services (auth, ids, logging).
import type { Context } from "hono"
import type { Simulator } from "../runtime/simulator.js"
import type { AuthOptions } from "./auth/authenticate.js"
import type { makeAuthorizer } from "./auth/authorize.js"
import type { ApiError } from "./errors.js"
import type { FailureLimiter } from "./auth/failure-limit.js"
import type { Reads } from "./reads.js"

export interface Logger {
  readonly error: (entry: Record<string, unknown>) => void
  readonly info: (message: string) => void
}

export interface ApiDeps {
  readonly sim: Simulator
  /** The read models as endpoints ask them (reads.ts), built once from `sim`. */
  readonly reads: Reads
  readonly auth: AuthOptions
  readonly authorize: ReturnType<typeof makeAuthorizer>
  readonly clientIp: (c: Context) => string | undefined
  readonly nextRequestId: () => string
  readonly defaultApiVersion: string
  readonly apiVersions: ReadonlyArray<string>
  readonly log: Logger
  /** Largest accepted request body, bytes. */
  readonly bodyLimit: number
  /** The control plane's second way in besides the Bearer token (the dashboard's session cookie). */
  readonly adminSession?: (c: Context) => boolean | ApiError
  /** Failed authentications per key and address (429 past the limit); undefined: not limited. */
  readonly authFailures: FailureLimiter | undefined
}

/**
 * The deps of the world a request is for, found from its context: a lone app's are fixed, while the worlds of a
 * server share one route table and each request brings its world's (app.ts, createWorldApps).
 */
export type DepsOf = (c: Context) => ApiDeps
