// A restart of `serve` on its data directory: a fault's `every` and `probability` count on from the last call it
// matched, not from its last hit (the calls that were not hit write no event; fault-calls.json keeps them), after a
// clean stop and after SIGKILL once the count was written.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/index.js"
import { eventually, startSimProcess, type SimProcess } from "../support/sim-process.js"
import { tempDir } from "../support/temp-dir.js"

const START = { timeoutMs: 120_000 }

/** The statuses of `n` signed `GET /vaults`, as a string of 1 (faulted, 503) and 0 (served). */
const pattern = async (p: SimProcess, creds: Credentials, n: number) => {
  let out = ""
  for (let i = 0; i < n; i++) {
    const r = await p.call(creds, "GET", "/vaults")
    expect([200, 503]).toContain(r.status)
    out += r.status === 503 ? "1" : "0"
  }
  return out
}

const countWritten = (dir: string, id: string, calls: number) => () => {
  const file = join(dir, "fault-calls.json")
  return Promise.resolve(existsSync(file) && (JSON.parse(readFileSync(file, "utf8")).calls?.[id] ?? 0) >= calls)
}

describe.each(["stop", "kill"] as const)("after a restart (%s)", (stop) => {
  it("every k-th call and the probability draws count on from the last call matched", { timeout: 300_000 }, async () => {
    const dir = tempDir("custody-sim-fault-calls-")
    const first = await startSimProcess(["--data-dir", dir, "--seed", "fault-calls"], START)
    const creds = first.credentials!
    let every = ""
    let drawn = ""
    let ids: ReadonlyArray<string> = []
    try {
      const added = [
        await first.admin("POST", "/_sim/faults", {
          match: { method: "GET", path: "/vaults" },
          effect: { kind: "status", status: 503 },
          every: 3,
        }),
      ]
      expect(added.map((r) => r.status)).toEqual([201])
      ids = added.map((r) => r.body.id as string)
      // Calls 1-4: the 3rd is hit; the count stands at 4, the last hit at 3.
      every = await pattern(first, creds, 4)
      expect(every).toBe("0010")
      if (stop === "kill") await eventually(countWritten(dir, ids[0]!, 4), 60_000)
    } finally {
      await (stop === "kill" ? first.kill() : first.stop(60_000))
    }
    const second = await startSimProcess(["--data-dir", dir, "--seed", "fault-calls"], START)
    try {
      // Calls 5 and 6: the 6th is hit (counted from the last hit, the 2nd call after the restart would be the 5th).
      every += await pattern(second, creds, 2)
      expect(every).toBe("001001")
      const listed = await second.admin("GET", "/_sim/faults")
      expect(listed.body.faults).toEqual([expect.objectContaining({ id: ids[0], hits: 2 })])
      // A probability fault added now counts from its first call on, over the restart too (same seed, same draws).
      expect((await second.admin("DELETE", "/_sim/faults")).status).toBe(200)
      const p = await second.admin("POST", "/_sim/faults", {
        match: { path: "/vaults" },
        effect: { kind: "status", status: 503 },
        probability: 0.5,
        seed: "restart",
      })
      expect(p.status).toBe(201)
      drawn = await pattern(second, creds, 6)
      if (stop === "kill") await eventually(countWritten(dir, p.body.id as string, 6), 60_000)
    } finally {
      await (stop === "kill" ? second.kill() : second.stop(60_000))
    }
    const third = await startSimProcess(["--data-dir", dir, "--seed", "fault-calls"], START)
    try {
      drawn += await pattern(third, creds, 6)
    } finally {
      await third.stop(60_000)
    }
    // The same draws as one run of twelve calls: a simulator that never stopped, same seed.
    const fresh = await startSimProcess(["--store", "memory", "--seed", "fault-calls-fresh"], START)
    try {
      expect(
        (
          await fresh.admin("POST", "/_sim/faults", {
            match: { path: "/vaults" },
            effect: { kind: "status", status: 503 },
            probability: 0.5,
            seed: "restart",
          })
        ).status,
      ).toBe(201)
      expect(drawn).toBe(await pattern(fresh, fresh.credentials!, 12))
      expect(drawn).toMatch(/1/)
      expect(drawn).toMatch(/0/)
    } finally {
      await fresh.stop(60_000)
    }
  })
})
