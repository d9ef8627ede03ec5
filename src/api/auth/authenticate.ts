// Authentication (401) and rate limit (429): headers, key and passphrase, timestamp window, signature.
import { createHash, createSecretKey, type KeyObject } from "node:crypto"
import { computeSignature, signatureMessage, signedQuery } from "../../protocol/signing.js"
import type { ApiKeyRecord, WorkspaceModel } from "../../projections/workspace.js"
import { errors, type ApiError } from "../errors.js"
import type { RateLimiter } from "./rate-limit.js"

export interface RawRequest {
  readonly method: string
  /** The path exactly as sent (percent-encoding kept). */
  readonly rawPath: string
  /** The query string as sent, without "?". */
  readonly rawQuery: string
  readonly body: string
  readonly header: (name: string) => string | undefined
}

export interface AuthOptions {
  /** Server time for the timestamp window, UNIX ms (wall time: clients sign with their own clocks). */
  readonly wallNow: () => number
  readonly rateLimiter: RateLimiter
  /** Keeps per-key work (HMAC key objects, verified passphrases) across requests. */
  readonly cache?: AuthCache
  /** `--reject-replays`: signatures seen within the timestamp window. */
  readonly replays?: ReplayGuard
}

export interface ReplayGuard {
  /** True the first time a signature is seen (for its timestamp's window), false after. */
  readonly first: (signature: string, timestampS: number) => boolean
}

/** Signatures kept until their timestamp leaves the window: a later request with one is out of the window anyway. */
export const makeReplayGuard = (nowMs: () => number): ReplayGuard => {
  const seen = new Map<string, number>()
  let sweepAt = 0
  return {
    first: (signature, timestampS) => {
      const nowS = nowMs() / 1000
      if (nowS >= sweepAt) {
        for (const [s, ts] of seen) if (ts < nowS - PAST_WINDOW_S - 1) seen.delete(s)
        sweepAt = nowS + 5
      }
      if (seen.has(signature)) return false
      seen.set(signature, timestampS)
      return true
    },
  }
}

const PAST_WINDOW_S = 30
const FUTURE_WINDOW_S = 10

/**
 * Constant time in the content of equal-length strings, like timingSafeEqual over their UTF-8 bytes, without
 * the two Buffers per comparison: equal UTF-16 code units are equal UTF-8 bytes.
 */
const equalStrings = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** Per key: its HMAC key object and the last passphrase that matched its hash (hashing once, not per request). */
export type AuthCache = WeakMap<ApiKeyRecord, { readonly hmacKey: KeyObject; verifiedPassphrase?: string }>

const signatureMatches = (hmacKey: KeyObject, req: RawRequest, timestamp: string, sign: string): boolean =>
  equalStrings(
    computeSignature(
      hmacKey,
      signatureMessage({ timestamp, method: req.method, path: req.rawPath, body: req.body, query: signedQuery(req.rawQuery) }),
    ),
    sign,
  )

export const authenticate = (req: RawRequest, workspace: WorkspaceModel, options: AuthOptions): ApiKeyRecord | ApiError => {
  const key = req.header("x-api-key")
  if (key === undefined || key === "") return errors.missingApiKey()
  // Each header read once, checked in this order: sign, timestamp, passphrase.
  const sign = req.header("x-api-sign")
  if (sign === undefined || sign === "") return errors.missingAuthorizationHeader("x-api-sign")
  const timestamp = req.header("x-api-timestamp")
  if (timestamp === undefined || timestamp === "") return errors.missingAuthorizationHeader("x-api-timestamp")
  const passphrase = req.header("x-api-passphrase")
  if (passphrase === undefined || passphrase === "") return errors.missingAuthorizationHeader("x-api-passphrase")
  const record = workspace.apiKeys.get(key)
  const nowS = options.wallNow() / 1000
  if (record === undefined || record.revoked) return errors.invalidApiKey()
  if (record.grant.activeFrom !== null && nowS < record.grant.activeFrom) return errors.invalidApiKey()
  let cached = options.cache?.get(record)
  if (cached === undefined) {
    cached = { hmacKey: createSecretKey(record.secretBytes) }
    options.cache?.set(record, cached)
  }
  let passphraseOk = true
  if (cached.verifiedPassphrase === undefined || !equalStrings(passphrase, cached.verifiedPassphrase)) {
    const hash = createHash("sha256").update(`${record.grant.passphraseSalt}:${passphrase}`).digest("hex")
    if (equalStrings(hash, record.grant.passphraseHash)) cached.verifiedPassphrase = passphrase
    else passphraseOk = false
  }
  // A wrong passphrase is told apart only to a caller whose signature proves it holds the secret: without it,
  // the answer does not depend on the passphrase (no guessing it against the codes).
  if (!passphraseOk && signatureMatches(cached.hmacKey, req, timestamp, sign)) return errors.invalidApiKey()

  if (!/^[0-9]{1,12}$/.test(timestamp)) return errors.invalidApiTimestamp()
  const ts = Number(timestamp)
  if (ts < nowS - PAST_WINDOW_S || ts > nowS + FUTURE_WINDOW_S) return errors.invalidApiTimestamp()

  if (!passphraseOk || !signatureMatches(cached.hmacKey, req, timestamp, sign))
    return req.body.charCodeAt(0) === 0xfeff ? errors.invalidApiSignAfterBom() : errors.invalidApiSign()
  if (options.replays !== undefined && !options.replays.first(sign, ts)) return errors.replayedSignature()

  const wait = options.rateLimiter.take(key, record.grant.rateLimit.perSecond, record.grant.rateLimit.burst)
  if (wait > 0) return errors.requestLimitReached(wait)
  return record
}
