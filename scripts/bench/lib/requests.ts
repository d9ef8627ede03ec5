// Requests as the load generator builds them, shared by the runner (to capture a response) and the child.
import { signRequest, type Credentials } from "../../../src/client/signing.js"

export interface RequestSpec {
  readonly method: string
  /** Path with an optional query string. */
  readonly url: string
  readonly body?: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A module varying requests per call (unique bodies, ids in paths): its `default` export receives `params`
 * and returns a builder called with 0, 1, 2, … for each request.
 */
export type RequestModule = { default: (params: unknown) => (n: number) => RequestSpec }

export interface LoadJob {
  readonly id: number
  /** Origin, e.g. http://127.0.0.1:41234 */
  readonly origin: string
  readonly request: RequestSpec
  /** Absolute path of a RequestModule; when given it builds every request and `request` is unused. */
  readonly requestModule?: string
  readonly requestParams?: unknown
  /** Sign with these credentials as src/client/signing.ts does: varying requests one by one, a repeated one once a second. */
  readonly sign?: Credentials
  readonly connections: number
  readonly pipelining: number
  readonly durationMs: number
  /** First n given to the request builder (so rounds do not repeat bodies). */
  readonly firstN: number
}

export interface LoadResult {
  readonly id: number
  readonly ok: number
  readonly perSecond: number
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly latencyP50: number
  readonly latencyP99: number
  readonly statusCodes: Record<string, number>
  readonly sent: number
}

export const buildRequest = (
  spec: RequestSpec,
  sign: Credentials | undefined,
): { method: string; path: string; body?: string; headers: Record<string, string> } => {
  const signed = sign === undefined ? {} : signRequest(sign, { method: spec.method, url: spec.url, body: spec.body ?? "" })
  return {
    method: spec.method,
    path: spec.url,
    headers: { ...spec.headers, ...signed },
    ...(spec.body !== undefined && spec.body.length > 0 ? { body: spec.body } : {}),
  }
}
