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

/** JSON's whitespace (RFC 8259 §2): space, horizontal tab, line feed, carriage return. */
const JSON_WHITESPACE = /[ \t\n\r]/

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/**
 * The body as the signature covers it: a leading UTF-8 byte order mark dropped (it is not part of the JSON text,
 * RFC 8259 §8.1), then JSON's whitespace outside strings removed and nothing else changed (key order, number text,
 * escapes and the spaces inside strings stay as sent), as the documentation's pre-request script minifies the
 * body it signs. A lexical scan, not a parse: a body that is not JSON is signed over the same form. A body with no
 * whitespace outside strings is returned as is (one native test when it has none at all).
 */
export const signedBody = (body: string): string => {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body
  if (!JSON_WHITESPACE.test(text)) return text
  const n = text.length
  let out = ""
  let from = 0
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // A string: on to its closing quote, the first one after an even run of backslashes.
      let end = text.indexOf('"', i + 1)
      while (end > 0 && escaped(text, end)) end = text.indexOf('"', end + 1)
      if (end < 0) break
      i = end + 1
      continue
    }
    if (isWhitespace(c)) {
      if (i > from) out += text.slice(from, i)
      from = i + 1
    }
    i++
  }
  return from === 0 ? text : out + text.slice(from)
}

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
const escaped = (text: string, at: number): boolean => {
  let k = at - 1
  while (text.charCodeAt(k) === 0x5c) k--
  return (at - 1 - k) % 2 === 1
}

export interface SignatureInput {
  /** UNIX seconds, as sent in x-api-timestamp. */
  readonly timestamp: string
  readonly method: string
  /** URL path only, beginning with "/". */
  readonly path: string
  /** The body as sent (`signedBody` gives the form signed); empty for none. */
  readonly body: string
  /** The query as `signedQuery` renders it. */
  readonly query: string
}

/** `{timestamp}{METHOD}{path}{body or "{}"}{query}` with no separators, the body as `signedBody` gives it. */
export const signatureMessage = (i: SignatureInput): string => {
  const body = signedBody(i.body)
  return i.timestamp + i.method.toUpperCase() + i.path + (body.length === 0 ? "{}" : body) + i.query
}

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
