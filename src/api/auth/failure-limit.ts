// Failed authentications, limited by what the one who sends them controls: the pair of client address and API key
// (a small bucket), and the client address across keys (a larger one, against a scan of key ids). Token buckets on
// wall time. Only a request that fails authentication is ever answered 429 by them: a request that authenticates is
// served whatever failed before it, so nobody who knows a key id can lock its owner out, and an owner's own bad
// signatures never cost it its good requests.
import { createHash } from "node:crypto"

export interface FailureLimit {
  /** Failures a (client address, API key) pair may make at once, and regains per second. */
  readonly burst: number
  readonly perSecond: number
}

/** What `serve` uses off loopback (`--auth-failure-limit 1/10`): 10 failures at once, then 1 a second, per pair. */
export const DEFAULT_FAILURE_LIMIT: FailureLimit = { perSecond: 1, burst: 10 }

/** A client address's bucket across all its keys, in pairs' buckets. */
export const ADDRESS_FACTOR = 10

export interface FailureLimiter {
  /**
   * Records a failed authentication; the seconds to tell the sender to wait (a 429 instead of the 401) when its pair
   * or its address is past its limit, else 0.
   */
  readonly failed: (key: string | undefined, address: string | undefined) => number
  /** Buckets held: only pairs and addresses that failed recently (the others are dropped once refilled). */
  readonly held: () => number
}

interface Bucket {
  tokens: number
  at: number
  readonly burst: number
  readonly perSecond: number
}

const MAX_BUCKETS = 100_000
/** How often buckets that have refilled (which limit nothing) are dropped. */
const SWEEP_MS = 5_000
/** Keys come from a header (up to the server's 16 KiB of headers): a longer one is held by its digest. */
const MAX_KEY_HELD = 64

const keyId = (key: string): string => (key.length <= MAX_KEY_HELD ? `k:${key}` : `k#${createHash("sha256").update(key).digest("base64")}`)

/** `--auth-failure-limit`: `off`, or `<per second>/<burst>` (`1/10`). */
export const parseFailureLimit = (text: string): FailureLimit | false | undefined => {
  if (text === "off") return false
  const m = /^([0-9]{1,6}(?:\.[0-9]{1,6})?)\/([0-9]{1,6})$/.exec(text)
  if (m === null) return undefined
  const perSecond = Number(m[1])
  const burst = Number(m[2])
  return perSecond > 0 && burst > 0 ? { perSecond, burst } : undefined
}

export const makeFailureLimiter = (limit: FailureLimit, nowMs: () => number = () => performance.now()): FailureLimiter => {
  const buckets = new Map<string, Bucket>()
  let sweepAt = 0
  const refill = (b: Bucket, now: number) => {
    b.tokens = Math.min(b.burst, b.tokens + ((now - b.at) / 1000) * b.perSecond)
    b.at = now
  }
  // A bucket is looked at again only when the same pair or address comes back: without the sweep, every one that
  // failed once would stay held until MAX_BUCKETS.
  const sweep = (now: number) => {
    if (now < sweepAt) return
    sweepAt = now + SWEEP_MS
    for (const [id, b] of buckets) {
      refill(b, now)
      if (b.tokens >= b.burst) buckets.delete(id)
    }
  }
  /** Takes a token; 0 when there was one, else the seconds until there is. */
  const spend = (id: string, burst: number, perSecond: number, now: number): number => {
    let b = buckets.get(id)
    if (b === undefined) {
      if (buckets.size >= MAX_BUCKETS) buckets.clear()
      buckets.set(id, (b = { tokens: burst, at: now, burst, perSecond }))
    }
    refill(b, now)
    if (b.tokens >= 1) {
      b.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / perSecond))
  }
  return {
    failed: (key, address) => {
      const now = nowMs()
      sweep(now)
      const from = address ?? ""
      const pair = spend(`p:${from}\n${key === undefined || key === "" ? "" : keyId(key)}`, limit.burst, limit.perSecond, now)
      const all = spend(`a:${from}`, limit.burst * ADDRESS_FACTOR, limit.perSecond * ADDRESS_FACTOR, now)
      return Math.max(pair, all)
    },
    held: () => buckets.size,
  }
}
