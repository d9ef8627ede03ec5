import { describe, expect, it } from "vitest"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"
import { tempDir } from "../support/temp-dir.js"

const T = 1_767_225_600 // 2026-01-01, UNIX seconds
const START = { timeoutMs: 120_000 }

const standing = async (p: SimProcess) => {
  const clock = await p.admin("GET", "/_sim/clock")
  const chain = await p.admin("GET", "/_sim/chains/bitcoin/testnet")
  expect([clock.status, chain.status]).toEqual([200, 200])
  return { nowMs: clock.body.nowMs as number, frozen: clock.body.frozen as boolean, height: chain.body.height as number }
}

/** Starts a world, configures a chain that mines every minute, advances an hour with no event due, and stops it. */
const advancedThenStopped = async (args: ReadonlyArray<string>, stop: "stop" | "kill") => {
  const dir = tempDir("custody-sim-clock-")
  const first = await startSimProcess(["--data-dir", dir, "--seed", "clock-restart", ...args], START)
  let before: Awaited<ReturnType<typeof standing>>
  try {
    expect((await first.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "interval", intervalSeconds: 60 })).status).toBe(200)
    expect((await first.admin("POST", "/_sim/clock/advance", { seconds: 3600 })).status).toBe(200)
    before = await standing(first)
    expect(before.height).toBeGreaterThanOrEqual(60)
  } finally {
    await (stop === "kill" ? first.kill() : first.stop(60_000))
  }
  return { dir, before }
}

describe.each(["stop", "kill"] as const)("a restart after %s", (stop) => {
  it("with the wall clock: clock and heights resume at or after where they stood, still following the wall clock", {
    timeout: 300_000,
  }, async () => {
    const { dir, before } = await advancedThenStopped([], stop)
    const second = await startSimProcess(["--data-dir", dir, "--seed", "clock-restart"], START)
    try {
      const after = await standing(second)
      expect(after.frozen).toBe(false)
      expect(after.nowMs).toBeGreaterThanOrEqual(before.nowMs)
      expect(after.height).toBeGreaterThanOrEqual(before.height)
      // The hour advanced is kept: simulated time is still ahead of the wall clock by it.
      expect(after.nowMs - Date.now()).toBeGreaterThan(3_500_000)
    } finally {
      await second.stop(60_000)
    }
  })

  it("with a frozen clock: resumes frozen exactly where it stood, with or without --frozen-at again", { timeout: 300_000 }, async () => {
    const { dir, before } = await advancedThenStopped(["--frozen-at", String(T)], stop)
    expect(before).toMatchObject({ frozen: true, nowMs: T * 1000 + 3_600_000 })
    const second = await startSimProcess(["--data-dir", dir, "--seed", "clock-restart"], START)
    try {
      expect(await standing(second)).toEqual(before)
    } finally {
      await (stop === "kill" ? second.kill() : second.stop(60_000))
    }
    // The start time named again is earlier than where the world stands: it does not take the world back.
    const third = await startSimProcess(["--data-dir", dir, "--seed", "clock-restart", "--frozen-at", String(T)], START)
    try {
      expect(await standing(third)).toEqual(before)
    } finally {
      await third.stop(60_000)
    }
  })
})
