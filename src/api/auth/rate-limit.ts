// Per-key token buckets (wall time: rate limits protect the service, they are not simulated state).
export interface RateLimiter {
  /** Takes one token; returns 0 when allowed, else the seconds to wait before a token is there. */
  readonly take: (key: string, perSecond: number, burst: number) => number
}

export const makeRateLimiter = (nowMs: () => number = () => performance.now()): RateLimiter => {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    take: (key, perSecond, burst) => {
      const now = nowMs()
      let b = buckets.get(key)
      if (b === undefined) buckets.set(key, (b = { tokens: burst, at: now }))
      b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond)
      b.at = now
      if (b.tokens >= 1) {
        b.tokens -= 1
        return 0
      }
      return Math.max(1, Math.ceil((1 - b.tokens) / perSecond))
    },
  }
}
