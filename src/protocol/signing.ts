// Request signing as the spec's "Authentication" section defines it; shared by the client and the server.
import { createHmac, type KeyObject } from "node:crypto"

/**
 * The query parameters as the JSON object string the signature covers: every value a string, keys in the
 * order they appear in the URL (`{}` when there are none). A repeated key keeps its first place and last value,
 * as a JSON object built by assignment would.
 */
export const signedQuery = (search: string): string => {
  const s = search.startsWith("?") ? search.slice(1) : search
  if (s.length === 0) return "{}"
  const map = new Map<string, string>()
  for (const [k, v] of new URLSearchParams(s)) map.set(k, v)
  let out = "{"
  let first = true
  for (const [k, v] of map) {
    out += (first ? "" : ",") + JSON.stringify(k) + ":" + JSON.stringify(v)
    first = false
  }
  return out + "}"
}

export interface SignatureInput {
  /** UNIX seconds, as sent in x-api-timestamp. */
  readonly timestamp: string
  readonly method: string
  /** URL path only, beginning with "/". */
  readonly path: string
  /** The raw body exactly as sent; empty for none. */
  readonly body: string
  /** The query as `signedQuery` renders it. */
  readonly query: string
}

/** `{timestamp}{METHOD}{path}{body or "{}"}{query}` with no separators. */
export const signatureMessage = (i: SignatureInput): string =>
  i.timestamp + i.method.toUpperCase() + i.path + (i.body.length === 0 ? "{}" : i.body) + i.query

/** Base64 of HMAC-SHA256 over the UTF-8 message, keyed with the Base64-decoded secret. */
export const computeSignature = (secretBase64: string | Buffer | KeyObject, message: string): string =>
  createHmac("sha256", typeof secretBase64 === "string" ? Buffer.from(secretBase64, "base64") : secretBase64)
    .update(message, "utf8")
    .digest("base64")

export interface Credentials {
  readonly key: string
  readonly secret: string
  readonly passphrase: string
}

export interface SignRequestInput {
  readonly method: string
  /** Path with an optional query string, e.g. "/vaults?limit=10". */
  readonly url: string
  readonly body?: string
  /** UNIX seconds; the current time when absent. */
  readonly timestamp?: number
  readonly apiVersion?: string
}

/** The headers of a signed request (x-api-key, x-api-sign, x-api-timestamp, x-api-passphrase, Content-Type). */
export const signRequest = (credentials: Credentials, input: SignRequestInput): Record<string, string> => {
  const q = input.url.indexOf("?")
  const path = q < 0 ? input.url : input.url.slice(0, q)
  const search = q < 0 ? "" : input.url.slice(q + 1)
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000))
  const sign = computeSignature(
    credentials.secret,
    signatureMessage({ timestamp, method: input.method, path, body: input.body ?? "", query: signedQuery(search) }),
  )
  return {
    "content-type": "application/json",
    "x-api-key": credentials.key,
    "x-api-sign": sign,
    "x-api-timestamp": timestamp,
    "x-api-passphrase": credentials.passphrase,
    ...(input.apiVersion !== undefined ? { "x-api-version": input.apiVersion } : {}),
  }
}
