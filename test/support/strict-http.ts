// A strict HTTP/1.1 client over kept-alive connections (undici) and the checks every answer must pass: its
// Content-Length is the body's byte length, the body is JSON, and an error is in its plane's error shape.
import { Client } from "undici"
import type { Credentials } from "../../src/client/index.js"
import { signRequest } from "../../src/client/signing.js"

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
}

export interface Call {
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

/**
 * One kept-alive connection; a framing error surfaces as a rejected request instead of a hang. A Content-Length
 * longer than the body leaves the client waiting for bytes that never come: the server writes an answer's body
 * in one piece right after its head, so a long silence inside a body means exactly that.
 */
export const strictConnection = (origin: string): Client =>
  new Client(origin, { pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 120_000, bodyTimeout: 10_000 })

export const send = async (client: Client, call: Call): Promise<Answer> => {
  const res = await client.request({
    method: call.method as "GET",
    path: call.path,
    headers: call.headers ?? {},
    ...(call.body !== undefined ? { body: call.body } : {}),
  })
  const text = await res.body.text()
  return { status: res.statusCode, headers: res.headers, text }
}

/** What is wrong with an answer's framing (undefined when nothing is). */
export const framingFault = (a: Answer): string | undefined => {
  const length = a.headers["content-length"]
  if (typeof length !== "string") return `no single Content-Length (${JSON.stringify(length)})`
  if (Number(length) !== Buffer.byteLength(a.text)) return `Content-Length ${length} for a body of ${Buffer.byteLength(a.text)} bytes`
  return undefined
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const errorPart = (e: unknown, detailsRequired: boolean): boolean =>
  isObject(e) &&
  typeof e.code === "string" &&
  /^[a-z_]+$/.test(e.code) &&
  typeof e.message === "string" &&
  (detailsRequired ? Array.isArray(e.details) : e.details === undefined || Array.isArray(e.details))

/** The spec's envelope around an error (apiVersion, requestId, context when sent, error with details). */
export const isApiErrorShape = (body: unknown): boolean =>
  isObject(body) &&
  typeof body.apiVersion === "string" &&
  typeof body.requestId === "string" &&
  (body.context === undefined || typeof body.context === "string") &&
  errorPart(body.error, true) &&
  Object.keys(body).every((k) => ["apiVersion", "requestId", "context", "error"].includes(k))

/** The control plane's `{ error: { code, message, details? } }`. */
export const isSimErrorShape = (body: unknown): boolean => isObject(body) && errorPart(body.error, false) && Object.keys(body).length === 1

export const json = (a: Answer): unknown => JSON.parse(a.text)

/**
 * A call signed with `creds()` over `client()` (getters: both are usually made in a `beforeAll`), answered in `version` (the header pins each request, whatever the key's
 * version): `item` is sent as `{ data: { item } }`, and the answer's JSON comes back with its status.
 */
export const signedCall =
  (client: () => Client, creds: () => Credentials) =>
  async (version: string, method: string, path: string, item?: unknown): Promise<{ status: number; body: any }> => {
    const body = item === undefined ? "" : JSON.stringify({ data: { item } })
    const headers = { ...signRequest(creds(), { method, url: path, body }), "x-api-version": version }
    const a = await send(client(), { method, path, headers, ...(method !== "GET" ? { body } : {}) })
    return { status: a.status, body: JSON.parse(a.text) }
  }
