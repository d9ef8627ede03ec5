// The failed-authentication limiter: a small bucket per (address, key) pair, a larger one per address, holding only
// what still limits something (buckets that have refilled are dropped), a key of any length in a bounded size.
import { describe, expect, it } from "vitest"
import { ADDRESS_FACTOR, makeFailureLimiter, parseFailureLimit } from "../../../src/api/auth/failure-limit.js"

const limit = { perSecond: 1, burst: 10 }

describe("failed-authentication limiter", () => {
  it("answers 0 for a pair's first `burst` failures, then the seconds until a token comes back", () => {
    let now = 0
    const limiter = makeFailureLimiter(limit, () => now)
    for (let i = 0; i < limit.burst; i++) expect(limiter.failed("key", "10.0.0.1")).toBe(0)
    expect(limiter.failed("key", "10.0.0.1")).toBe(1)
    // Another key from the same address, and the same key from another address, are other pairs.
    expect(limiter.failed("other", "10.0.0.1")).toBe(0)
    expect(limiter.failed("key", "10.0.0.2")).toBe(0)
    now += 1_000
    expect(limiter.failed("key", "10.0.0.1")).toBe(0)
    expect(limiter.failed("key", "10.0.0.1")).toBe(1)
  })

  it("limits an address that tries many keys once it has failed ten pairs' worth", () => {
    const limiter = makeFailureLimiter(limit, () => 0)
    const burst = limit.burst * ADDRESS_FACTOR
    for (let i = 0; i < burst; i++) expect(limiter.failed(`scan-${i}`, "10.0.0.9")).toBe(0)
    expect(limiter.failed("scan-next", "10.0.0.9")).toBeGreaterThan(0)
    expect(limiter.failed("scan-next", "10.0.0.10")).toBe(0)
  })

  it("forgets pairs and addresses once their buckets have refilled, so a long run holds only recent failures", () => {
    let now = 0
    const limiter = makeFailureLimiter(limit, () => now)
    for (let i = 0; i < 1_000; i++) for (let j = 0; j < limit.burst; j++) limiter.failed(`unknown-key-${i}`, `10.0.${i >>> 8}.${i & 255}`)
    expect(limiter.failed("unknown-key-0", "10.0.0.0")).toBeGreaterThan(0)
    expect(limiter.held()).toBe(2_000)
    // 10 tokens at 1 a second: full again after 10 s, and a bucket that has refilled is gone at the next sweep.
    now += 11_000
    expect(limiter.failed("another-key", "10.9.9.9")).toBe(0)
    expect(limiter.held()).toBe(2)
    for (let i = 0; i < 1_000; i++) expect(limiter.failed(`unknown-key-${i}`, `10.0.${i >>> 8}.${i & 255}`)).toBe(0)
  })

  it("limits a key far longer than any real one, told apart from another that differs only at its end", () => {
    const limiter = makeFailureLimiter(limit, () => 0)
    const long = "k".repeat(16 * 1024)
    for (let i = 0; i < limit.burst; i++) limiter.failed(long, "10.0.0.1")
    expect(limiter.failed(long, "10.0.0.1")).toBeGreaterThan(0)
    expect(limiter.failed(`${long.slice(0, -1)}x`, "10.0.0.1")).toBe(0)
  })

  it("reads --auth-failure-limit as off or <per second>/<burst>", () => {
    expect(parseFailureLimit("off")).toBe(false)
    expect(parseFailureLimit("1/10")).toEqual({ perSecond: 1, burst: 10 })
    expect(parseFailureLimit("0.5/3")).toEqual({ perSecond: 0.5, burst: 3 })
    for (const bad of ["", "10", "0/10", "1/0", "-1/10", "1/10/2", "on", "1e3/10"]) expect(parseFailureLimit(bad)).toBeUndefined()
  })
})
