// `custody-sim serve` on a SQLite data dir: a clean stop writes a checkpoint, the next start loads it (and says so)
// and answers as before; --checkpoint-every 0 writes none; a bad value is a usage error.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { listCheckpoints } from "../../src/checkpoints/directory.js"
import { startSimProcess } from "../support/sim-process.js"
import { tempDir } from "../support/temp-dir.js"

const dir = () => tempDir("custody-sim-ckpt-serve-")

describe("serve with checkpoints", () => {
  it("writes one at a clean stop, and the next start loads it and answers the same", { timeout: 300_000 }, async () => {
    const data = dir()
    const first = await startSimProcess(["--data-dir", data, "--seed", "ckpt-serve"], { timeoutMs: 120_000 })
    let vaults: unknown
    try {
      expect((await first.admin("POST", "/_sim/vaults", { name: "Kept", type: "main" })).status).toBe(201)
      vaults = (await first.call(first.credentials!, "GET", "/vaults")).body.data
    } finally {
      await first.stop(120_000)
    }
    const saved = listCheckpoints(data)
    expect(saved).toHaveLength(1)
    expect(statSync(saved[0]!.file).mode & 0o777).toBe(0o600)
    expect(statSync(data).mode & 0o777).toBe(0o700)
    const second = await startSimProcess(["--data-dir", data, "--seed", "ckpt-serve"], { timeoutMs: 120_000 })
    try {
      expect(second.output()).toContain(`(read models from the checkpoint at position ${saved[0]!.position})\n`)
      const creds = JSON.parse(readFileSync(join(data, "credentials.json"), "utf8")).apiKeys[0]
      // The request id aside (it numbers each process's requests), the same answer.
      expect((await second.call(creds, "GET", "/vaults")).body.data).toEqual(vaults)
    } finally {
      await second.stop(120_000)
    }
  })

  it("--checkpoint-every 0 writes none; a value that is not a count is refused", { timeout: 300_000 }, async () => {
    const data = dir()
    const sim = await startSimProcess(["--data-dir", data, "--checkpoint-every", "0"], { timeoutMs: 120_000 })
    await sim.stop(120_000)
    expect(readdirSync(data).filter((n) => n.includes("checkpoint"))).toEqual([])
    await expect(startSimProcess(["--data-dir", data, "--checkpoint-every", "ten"], { timeoutMs: 120_000 })).rejects.toThrow(
      /--checkpoint-every must be a number of events \(0: never\), not ten/,
    )
  })
})
