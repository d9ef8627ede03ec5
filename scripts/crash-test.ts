// The crash campaign: `npm run crash-test -- [--kills N] [--writers W]`. For each durability setting, starts
// `custody-sim serve` on one SQLite data dir, writes through W connections, kills it with SIGKILL at a random
// moment, restarts it and checks that every acknowledged write (each 201's request id) is in the log; N kills
// per setting. Prints kills, acknowledged writes, writes lost and restarts that were not clean.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { startSimProcess, type SimProcess } from "../test/support/sim-process.js"

const { values } = parseArgs({ options: { kills: { type: "string", default: "10" }, writers: { type: "string", default: "4" } } })
const kills = Number(values.kills)
const writers = Number(values.writers)

const exited = (pid: number) =>
  new Promise<void>((resolve) => {
    const poll = () => {
      try {
        process.kill(pid, 0)
        setTimeout(poll, 20)
      } catch {
        resolve()
      }
    }
    poll()
  })

const loggedIds = async (sim: SimProcess): Promise<Set<string>> => {
  const ids = new Set<string>()
  for (let from = 0; ; ) {
    const page = (await sim.admin("GET", `/_sim/events?fromPosition=${from}&limit=10000`)).body as {
      events: Array<{ metadata: { requestId?: string } }>
      nextPosition?: number
    }
    for (const e of page.events) if (e.metadata.requestId !== undefined) ids.add(e.metadata.requestId)
    if (page.nextPosition === undefined) return ids
    from = page.nextPosition
  }
}

const figures: Array<string> = []
let failed = false
for (const durability of ["normal", "full"] as const) {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-crash-"))
  const args = ["--data-dir", dir, "--durability", durability, "--seed", "crash-test"]
  let sim = await startSimProcess(args)
  const creds = sim.credentials!
  const vault = ((await sim.call(creds, "GET", "/vaults/test")).body as { data: { items: Array<{ id: string }> } }).data.items[0]!.id
  const acknowledged = new Set<string>()
  let unclean = 0
  let lost = 0
  for (let k = 0; k < kills; k++) {
    let writing = true
    const write = async (w: number) => {
      for (let i = 0; writing; i++) {
        try {
          const r = await sim.call(creds, "POST", `/vaults/${vault}/vault-account`, {
            name: `crash ${k}.${w}.${i}`,
            color: "#000000",
            isHiddenInDashboard: false,
          })
          if (r.status === 201) acknowledged.add((r.body as { requestId: string }).requestId)
        } catch {
          return // the server is gone
        }
      }
    }
    const load = Array.from({ length: writers }, (_, w) => write(w))
    await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1_200))
    process.kill(sim.pid!, "SIGKILL")
    await exited(sim.pid!)
    writing = false
    await Promise.all(load)
    try {
      sim = await startSimProcess(args)
      if ((await sim.admin("GET", "/_sim/health")).body.status !== "ok" || /error|Die/i.test(sim.output())) unclean++
    } catch (e) {
      unclean++
      console.error(String(e))
      break
    }
    const logged = await loggedIds(sim)
    for (const id of acknowledged) if (!logged.has(id)) lost++
    acknowledged.forEach((id) => {
      logged.has(id) || acknowledged.delete(id)
    })
  }
  const total = acknowledged.size + lost
  await sim.stop()
  rmSync(dir, { recursive: true, force: true })
  figures.push(
    `durability ${durability.padEnd(6)}  kills ${kills}, acknowledged writes ${total.toLocaleString("en-US")}, lost ${lost}, unclean restarts ${unclean}`,
  )
  if (lost > 0 || unclean > 0) failed = true
}
console.log(`crash campaign: ${kills} SIGKILLs per durability setting under write load (${writers} writers)`)
for (const f of figures) console.log(f)
process.exitCode = failed ? 1 : 0
