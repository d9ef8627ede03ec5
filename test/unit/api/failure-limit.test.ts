// The failed-authentication limiter holds only what still limits something: keys and addresses whose buckets have
// refilled are dropped, and a key of any length is held in a bounded size.
import { describe, expect, it } from "vitest"
import { makeFailureLimiter } from "../../../src/api/auth/failure-limit.js"

const limit = { perSecond: 5, burst: 50 }

describe("failed-authentication limiter", () => {
  it("forgets keys and addresses once their buckets have refilled, so a long run holds only recent failures", () => {
    let now = 0
    const limiter = makeFailureLimiter(limit, () => now)
    for (let i = 0; i < 1_000; i++) limiter.failed(`unknown-key-${i}`, `10.0.${i >>> 8}.${i & 255}`)
    expect(limiter.active()).toBe(true)
    expect(limiter.blocked(undefined, "10.0.0.0")).toBe(0)
    // 50 tokens at 5 a second: full again after 10 s, and nothing those keys or addresses did is held after that.
    now += 11_000
    expect(limiter.blocked("another-key", "10.9.9.9")).toBe(0)
    expect(limiter.active()).toBe(false)
  })

  it("still limits a key or an address that keeps failing while the others are forgotten", () => {
    let now = 0
    const limiter = makeFailureLimiter(limit, () => now)
    for (let i = 0; i < 100; i++) limiter.failed(`stale-${i}`, undefined)
    for (let s = 0; s < 12; s++) {
      now += 1_000
      for (let i = 0; i < 10; i++) limiter.failed("busy-key", "10.0.0.1")
    }
    expect(limiter.blocked("busy-key", undefined)).toBeGreaterThan(0)
    expect(limiter.blocked(undefined, "10.0.0.1")).toBeGreaterThan(0)
    expect(limiter.blocked("stale-0", undefined)).toBe(0)
  })

  it("limits a key far longer than any real one, told apart from another that differs only at its end", () => {
    const now = 0
    const limiter = makeFailureLimiter(limit, () => now)
    const long = "k".repeat(16 * 1024)
    for (let i = 0; i < limit.burst; i++) limiter.failed(long, undefined)
    expect(limiter.blocked(long, undefined)).toBeGreaterThan(0)
    expect(limiter.blocked(`${long.slice(0, -1)}x`, undefined)).toBe(0)
  })
})
