// JSON-RPC 2.0 over one body: a request or a batch of them, answered in order; a notification (no id) gets no
// answer. -32700 a body that is not JSON, -32600 a value that is not a request, -32601 a method not served.
import type { ChainIndex } from "./chain-index.js"
import { RawJson, RpcError } from "./evm-params.js"
import { methods } from "./evm-methods.js"

type Id = string | number | null
type Answer = { jsonrpc: "2.0"; id: Id; result: unknown } | { jsonrpc: "2.0"; id: Id; error: { code: number; message: string } }

const failure = (id: Id, e: RpcError): Answer => ({ jsonrpc: "2.0", id, error: { code: e.code, message: e.message } })

const isId = (v: unknown): v is Id => v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v))

/** One request's answer; undefined for a notification. The index is made once, for the first request that reads it. */
const answer = (value: unknown, ix: () => ChainIndex): Answer | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return failure(null, new RpcError(-32600, "invalid request"))
  const r = value as Record<string, unknown>
  const id = isId(r.id) ? r.id : null
  if (r.jsonrpc !== "2.0" || typeof r.method !== "string" || ("id" in r && !isId(r.id)))
    return failure(id, new RpcError(-32600, 'invalid request: jsonrpc must be "2.0", method a string, id a string, number or null'))
  if (r.params !== undefined && !Array.isArray(r.params)) return failure(id, new RpcError(-32602, "invalid params: params must be a list"))
  const method = Object.hasOwn(methods, r.method) ? methods[r.method] : undefined
  const result =
    method === undefined
      ? new RpcError(-32601, `the method ${r.method} does not exist or is not available`)
      : method(ix(), (r.params as ReadonlyArray<unknown> | undefined) ?? [])
  if (!("id" in r)) return undefined
  return result instanceof RpcError ? failure(id, result) : { jsonrpc: "2.0", id, result }
}

const CLOSE = Buffer.from("}")

/** An answer as JSON: a string, or bytes around a result already written (never decoded nor written again). */
const written = (a: Answer): string | Uint8Array =>
  "result" in a && a.result instanceof RawJson
    ? Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(a.id)},"result":`), a.result.bytes, CLOSE])
    : JSON.stringify(a)

const batch = (answers: ReadonlyArray<Answer>): string | Uint8Array => {
  const parts = answers.map(written)
  if (parts.every((p) => typeof p === "string")) return `[${parts.join(",")}]`
  const bytes = parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p))
  return Buffer.concat([Buffer.from("["), ...bytes.flatMap((b, i) => (i === 0 ? [b] : [Buffer.from(","), b])), Buffer.from("]")])
}

/** The body to answer with, as JSON (undefined: nothing, every request was a notification). */
export const answerJsonRpc = (text: string, ix: () => ChainIndex): string | Uint8Array | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return written(failure(null, new RpcError(-32700, "parse error: the body is not JSON")))
  }
  if (!Array.isArray(parsed)) {
    const one = answer(parsed, ix)
    return one === undefined ? undefined : written(one)
  }
  if (parsed.length === 0) return written(failure(null, new RpcError(-32600, "invalid request: an empty batch")))
  const out = parsed.map((r) => answer(r, ix)).filter((a) => a !== undefined)
  return out.length === 0 ? undefined : batch(out)
}
