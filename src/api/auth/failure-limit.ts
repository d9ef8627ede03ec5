// Failed authentications per API key and per client address (token buckets, wall time): past the burst, every
// request from that address or with that key answers 429 until the bucket refills.
import { createHash } from "node:crypto"

export interface FailureLimit {
  readonly perSecond: number
  readonly burst: number
}

export const DEFAULT_FAILURE_LIMIT: FailureLimit = { perSecond: 5, burst: 50 }

export interface FailureLimiter {
  /** False while nothing failed recently: the request path then skips the lookups. */
  readonly active: () => boolean
  /** Seconds to wait when the key or the address failed too often, else 0. */
  readonly blocked: (key: string | undefined, address: string | undefined) => number
  readonly failed: (key: string | undefined, address: string | undefined) => void
}

interface Bucket {
  tokens: number
  at: number
}

const MAX_BUCKETS = 100_000
/** How often buckets that have refilled (which limit nothing) are dropped. */
const SWEEP_MS = 5_000
/** Keys come from a header (up to the server's 16 KiB of headers): a longer one is held by its digest. */
const MAX_KEY_HELD = 64

const keyId = (key: string): string => (key.length <= MAX_KEY_HELD ? `k:${key}` : `k#${createHash("sha256").update(key).digest("base64")}`)

export const makeFailureLimiter = (limit: FailureLimit, nowMs: () => number = () => performance.now()): FailureLimiter => {
  const buckets = new Map<string, Bucket>()
  let sweepAt = 0
  // A bucket is looked at again only when the same key or address comes back: without the sweep, every key that
  // failed once would stay held (and keep the request path off its no-lookup shortcut) until MAX_BUCKETS.
  const sweep = (now: number) => {
    if (now < sweepAt) return
    sweepAt = now + SWEEP_MS
    for (const [id, b] of buckets) {
      refill(b, now)
      if (b.tokens >= limit.burst) buckets.delete(id)
    }
  }
  const refill = (b: Bucket, now: number) => {
    b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) / 1000) * limit.perSecond)
    b.at = now
  }
  const waitFor = (id: string, now: number): number => {
    const b = buckets.get(id)
    if (b === undefined) return 0
    refill(b, now)
    if (b.tokens >= limit.burst) buckets.delete(id)
    return b.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / limit.perSecond))
  }
  const spend = (id: string, now: number) => {
    let b = buckets.get(id)
    if (b === undefined) {
      if (buckets.size >= MAX_BUCKETS) buckets.clear()
      buckets.set(id, (b = { tokens: limit.burst, at: now }))
    }
    refill(b, now)
    b.tokens = Math.max(0, b.tokens - 1)
  }
  return {
    active: () => buckets.size > 0,
    blocked: (key, address) => {
      const now = nowMs()
      sweep(now)
      return Math.max(key === undefined || key === "" ? 0 : waitFor(keyId(key), now), address === undefined ? 0 : waitFor(`a:${address}`, now))
    },
    failed: (key, address) => {
      const now = nowMs()
      sweep(now)
      if (key !== undefined && key !== "") spend(keyId(key), now)
      if (address !== undefined) spend(`a:${address}`, now)
    },
  }
}
