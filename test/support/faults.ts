// Signed requests over a real socket with undici, for the fault tests (test/api/faults/): the answer parsed, or
// the client's error when the connection is dropped or the signal aborts.
import { request } from "undici"
import { type Credentials, signRequest } from "../../src/client/index.js"

export const signedOver =
  (url: () => string, defaultCreds: () => Credentials) =>
  async (
    method: "GET" | "POST",
    path: string,
    options: { item?: unknown; creds?: Credentials; signal?: AbortSignal; headers?: Record<string, string> } = {},
  ) => {
    const body = options.item === undefined ? "" : JSON.stringify({ data: { item: options.item } })
    const headers = { ...signRequest(options.creds ?? defaultCreds(), { method, url: path, body }), ...options.headers }
    const res = await request(url() + path, {
      method,
      headers,
      ...(body !== "" ? { body } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    })
    const text = await res.body.text()
    return { status: res.statusCode, body: JSON.parse(text), headers: res.headers }
  }
