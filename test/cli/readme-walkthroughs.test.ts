// The README's shell walk-throughs ("First use", "A withdrawal, step by step" and its 2024-05-09 section), run as
// written against a fresh `serve` (its default workspace, whose key is at the newest version): only the command's
// name (the checkout's command, test/support/cli-command.ts) and the port are put in, and the script's variables are read
// back at its end to check the world it left.
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { parseAmount } from "../../src/testing.js"
import { CLI } from "../support/cli-command.js"
import { readmeShell } from "../support/readme-code.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"

const COMMAND = `node ${CLI.join(" ")}`

let sim: SimProcess | undefined
let dir = ""
afterEach(async () => {
  await sim?.stop()
  sim = undefined
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

/** Runs the blocks in one bash (stopping at the first failing command), then prints the named variables. */
const run = async (blocks: ReadonlyArray<string>, variables: ReadonlyArray<string>) => {
  dir = mkdtempSync(join(tmpdir(), "custody-readme-"))
  sim = await startSimProcess(["--data-dir", join(dir, ".custody-sim")])
  expect(blocks.join("\n")).toContain("http://127.0.0.1:8080")
  const script = [
    "set -eo pipefail",
    ...blocks.map((b) => b.replaceAll("npx custody-sim", COMMAND).replaceAll("http://127.0.0.1:8080", sim!.url)),
    ...variables.map((v) => `echo "${v}=$${v}"`),
  ].join("\n")
  const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile("bash", ["-c", script], { cwd: dir, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 240_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
    ),
  )
  expect([out.code, out.stderr]).toEqual([0, ""])
  const values = Object.fromEntries(variables.map((v) => [v, new RegExp(`^${v}=(.*)$`, "m").exec(out.stdout)?.[1] ?? ""]))
  return { stdout: out.stdout, values }
}

const assets = async (vault: string, address: string) => {
  const r = await sim!.call(sim!.credentials!, "GET", `/vaults/${vault}/addresses/${address}/assets?blockchain=ethereum`)
  expect(r.status).toBe(200)
  return r.body.data.item.assets as Array<{
    assetUnit: string
    assetData: { totalAmount: string; availableAmount: string; blockedAmount: string }
  }>
}

describe("the README's walk-throughs, as written", () => {
  it("First use: at 2026-03-20, an account, an address, a deposit credited after the clock advances", async () => {
    const blocks = readmeShell("## First use, with signed requests")
    expect(blocks).toHaveLength(2)
    const { stdout, values } = await run(blocks, ["VAULT", "ACCOUNT", "ADDR"])
    expect(values.VAULT).toMatch(/^[0-9a-f]{24}$/)
    expect(values.ACCOUNT).toMatch(/^[0-9a-f]{24}$/)
    expect(values.ADDR).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(stdout).toContain('"apiVersion":"2026-03-20"')
    expect(stdout).not.toContain('"apiVersion":"2024-05-09"')
    const eth = (await assets(values.VAULT!, values.ADDR!)).find((a) => a.assetUnit === "ETH")
    expect(eth?.assetData.totalAmount).toBe("1.5")
  }, 300_000)

  it("A withdrawal, step by step, then its 2024-05-09 steps: success at 2026-03-20, the 2024 paths at 2024-05-09", async () => {
    const blocks = [...readmeShell("## A withdrawal, step by step")]
    expect(blocks).toHaveLength(2) // the walk-through and its "At 2024-05-09" section
    const { stdout, values } = await run(blocks, ["VAULT", "ADDR", "REQUEST", "TRANSACTION_ID", "OLD"])
    const request = await sim!.call(sim!.credentials!, "GET", `/transaction-requests/${values.REQUEST}`)
    expect(request.status).toBe(200)
    expect(request.body.apiVersion).toBe("2026-03-20")
    expect(request.body.data.item).toMatchObject({ transactionRequestStatus: "success", transactionId: values.TRANSACTION_ID })
    const tx = await sim!.call(sim!.credentials!, "GET", `/vaults/${values.VAULT}/ethereum/transactions/${values.TRANSACTION_ID}`)
    expect(tx.body.data.item.status).toBe("completed")
    const wei = (s: string): bigint => {
      const parsed = parseAmount(s, 18)
      if (!parsed.ok) throw new Error(`not an amount: ${s}`)
      return parsed.value
    }
    const fee = wei(tx.body.data.item.transactionFee.amount)
    expect(fee).toBeGreaterThan(0n)
    // 1.5 − 0.5 − fee in total; the 2024-05-09 request of 0.1 awaits approval, holding 0.1 and its maximum fee.
    const eth = (await assets(values.VAULT!, values.ADDR!)).find((a) => a.assetUnit === "ETH")!
    expect(wei(eth.assetData.totalAmount)).toBe(wei("1.0") - fee)
    const old = await sim!.call(sim!.credentials!, "GET", `/transactionRequests/${values.OLD}`, undefined, {
      "x-api-version": "2024-05-09",
    })
    expect([old.status, old.body.apiVersion, old.body.data.item.transactionRequestStatus]).toEqual([200, "2024-05-09", "await-approval"])
    expect(stdout).toContain('"apiVersion":"2024-05-09"')
    expect(stdout).toContain("await-approval")
  }, 300_000)
})
