// The fuzz campaign: `npm run fuzz -- [--minutes N] [--requests R] [--connections C] [--seed S] [--progress SECONDS]
// [--memory-every SECONDS] [--memory-log FILE]`. Starts `custody-sim serve` (SQLite, a fresh data dir), sends fuzzed
// requests on C kept-alive connections for N minutes (or R requests, whichever ends first; snapshots, reverts and
// resets in every spelling among them, and clients that cut off, break or drip their bodies over raw sockets) and
// prints: requests, framing errors, 5xx, answers outside the
// error shape, hangs, events written by refused requests, and the server's memory over the second half of the run
// (as it runs, and right after a full collection forced every --memory-every seconds, default 5; FILE gets every
// sample as a JSON line). Every --progress seconds (default 30) a line on stderr gives the rate and the CPU per
// request of the server and of this client, so a falling rate shows its side.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { errors as undiciErrors } from "undici"
import { controlPlane, fuzzPlans, isUnreachedPosition, toCall, worldReplacing } from "../test/support/fuzz-requests.js"
import { MisbehaviourHang, sendMisbehaving } from "../test/support/fuzz-misbehave.js"
import { startSimProcess } from "../test/support/sim-process.js"
import type { MemorySample } from "./fuzz-memory.js"
import { type Answer, framingFault, isApiErrorShape, isSimErrorShape, send, strictConnection } from "../test/support/strict-http.js"

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "1" },
    requests: { type: "string" },
    connections: { type: "string", default: "8" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    progress: { type: "string", default: "30" },
    "memory-every": { type: "string", default: "5" },
    "memory-log": { type: "string" },
  },
})
const minutes = Number(values.minutes)
/** Stop after this many requests (or the minutes, whichever comes first). */
const maxRequests = values.requests === undefined ? Infinity : Number(values.requests)
const connections = Number(values.connections)
const seed = Number(values.seed)
const memoryEvery = Number(values["memory-every"])
const SEMI_SPACE_MIB = 16

const dir = mkdtempSync(join(tmpdir(), "custody-sim-fuzz-"))
// The server's memory, from inside it (scripts/fuzz-memory.ts): as it runs, and right after a full collection
// forced at each sample, which is what it holds. Its young generation has a fixed size (both semi-space limits at
// V8's default maximum): V8 otherwise grows and shrinks it with the allocation rate, and the RSS with it.
const samples: Array<{ at: number } & MemorySample> = []
process.env.FUZZ_MEMORY_EVERY_MS = String(memoryEvery * 1_000)
let partial = ""
const sim = await startSimProcess(["--data-dir", dir], {
  nodeArgs: [
    `--min-semi-space-size=${SEMI_SPACE_MIB}`,
    `--max-semi-space-size=${SEMI_SPACE_MIB}`,
    "--expose-gc",
    "--import",
    "tsx",
    "--import",
    "./scripts/fuzz-memory.ts",
  ],
  onOutput: (chunk) => {
    const lines = (partial + chunk).split("\n")
    partial = lines.pop()!
    for (const line of lines)
      if (line.startsWith("fuzz-memory "))
        samples.push({ at: performance.now(), ...(JSON.parse(line.slice("fuzz-memory ".length)) as MemorySample) })
  },
})
const pid = sim.pid ?? NaN
const creds = sim.credentials!
const testVaultId = ((await sim.call(creds, "GET", "/vaults/test")).body as { data: { items: Array<{ id: string }> } }).data.items[0]!.id
const target = { testVaultId, creds, adminToken: sim.adminToken, bodyLimit: 1024 * 1024 }

const rss = (): number | undefined => {
  if (!Number.isFinite(pid)) return undefined
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
  return kb === undefined ? undefined : Number(kb) * 1024
}

const started = performance.now()
const endAt = started + minutes * 60_000
const figures = {
  misbehaved: 0,
  world: 0,
  requests: 0,
  framing: 0,
  fiveXX: 0,
  unreached: 0,
  shape: 0,
  hangs: 0,
  transport: 0,
  statuses: new Map<number, number>(),
}
const faults: Array<string> = []
const accepted = new Set<string>()
const refused = new Set<string>()
const memory: Array<{ at: number; bytes: number }> = []
const sampler = setInterval(() => {
  const bytes = rss()
  if (bytes !== undefined) memory.push({ at: performance.now() - started, bytes })
}, 2_000)
// CPU seconds of the server (from /proc) and of this client, to tell which side limits the rate.
const serverCpu = (): number => {
  if (!Number.isFinite(pid)) return NaN
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const clientCpu = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
const memoryNow = (): string => {
  const m = samples.at(-1)
  if (m === undefined) return ""
  const c = m.collected
  return ` (young ${m.running.young.toFixed(0)}, old ${m.running.old.toFixed(0)}${c === undefined ? "" : `; after a full GC: RSS ${c.rss.toFixed(0)}, heap ${c.oldUsed.toFixed(1)}`})`
}
const progressEvery = Number(values.progress) * 1_000
let last = { at: performance.now(), requests: 0, server: serverCpu(), client: clientCpu() }
const progress = setInterval(() => {
  const now = { at: performance.now(), requests: figures.requests, server: serverCpu(), client: clientCpu() }
  const s = (now.at - last.at) / 1000
  const n = now.requests - last.requests
  console.error(
    `${((now.at - started) / 1000).toFixed(0).padStart(5)} s  ${String(Math.round(n / s)).padStart(5)} req/s  server ${(((now.server - last.server) / s) * 100).toFixed(0).padStart(3)}% CPU (${n === 0 ? "-" : Math.round(((now.server - last.server) / n) * 1e6)} µs/req)  client ${(((now.client - last.client) / s) * 100).toFixed(0).padStart(3)}% CPU (${n === 0 ? "-" : Math.round(((now.client - last.client) / n) * 1e6)} µs/req)  server RSS ${((rss() ?? NaN) / 2 ** 20).toFixed(0)} MiB${memoryNow()}  load ${loadavg()[0]!.toFixed(1)}`,
  )
  last = now
}, progressEvery)
const head = async () => Number((await sim.admin("GET", "/_sim/health")).body.position)
const before = await head()

const lane = async (n: number) => {
  let round = 0
  let client = strictConnection(sim.url)
  while (performance.now() < endAt && figures.requests < maxRequests) {
    const plans = fuzzPlans(500, seed * 1_000 + n * 100_000 + round++)
    for (const plan of plans) {
      if (performance.now() >= endAt || figures.requests >= maxRequests) break
      const call = toCall(target, plan)
      figures.requests++
      if (plan.misbehave !== undefined) figures.misbehaved++
      if (worldReplacing(call)) figures.world++
      let answer: Answer | undefined
      try {
        answer = plan.misbehave !== undefined ? await sendMisbehaving(sim.url, call, plan.misbehave) : await send(client, call)
      } catch (error) {
        if (
          error instanceof undiciErrors.BodyTimeoutError ||
          error instanceof undiciErrors.HeadersTimeoutError ||
          error instanceof MisbehaviourHang
        )
          figures.hangs++
        else figures.transport++
        faults.push(`${call.method} ${call.path.slice(0, 100)}: ${String(error)}`)
        await client.destroy()
        client = strictConnection(sim.url)
        continue
      }
      if (answer === undefined) continue
      figures.statuses.set(answer.status, (figures.statuses.get(answer.status) ?? 0) + 1)
      const framing = framingFault(answer)
      if (framing !== undefined) {
        figures.framing++
        faults.push(`${call.method} ${call.path.slice(0, 100)}: ${framing}`)
      }
      if (isUnreachedPosition(call, answer)) figures.unreached++
      else if (answer.status >= 500) {
        figures.fiveXX++
        faults.push(`${call.method} ${call.path.slice(0, 100)}: ${answer.status} ${answer.text.slice(0, 200)}`)
      }
      // The dashboard's pages are HTML (a path like /ui/x/.. resolves to one).
      if (
        answer.status < 400 &&
        /^text\/html/.test(String(answer.headers["content-type"])) &&
        new URL(call.path, sim.url).pathname.startsWith("/ui")
      )
        continue
      let body: unknown
      try {
        body = JSON.parse(answer.text)
      } catch {
        figures.shape++
        faults.push(`${call.method} ${call.path.slice(0, 100)}: ${answer.status}, not JSON: ${answer.text.slice(0, 200)}`)
        continue
      }
      const requestId = (body as { requestId?: unknown }).requestId
      if (answer.status >= 400) {
        if (!(isApiErrorShape(body) || (controlPlane(call) && isSimErrorShape(body)))) {
          figures.shape++
          faults.push(
            `${call.method} ${call.path.slice(0, 100)} ${JSON.stringify(call.headers ?? {}).slice(0, 300)}: ${answer.status} outside the error shape: ${answer.text.slice(0, 200)}`,
          )
        }
        if (typeof requestId === "string") refused.add(requestId)
      } else if (typeof requestId === "string") accepted.add(requestId)
    }
  }
  await client.close()
}
await Promise.all(Array.from({ length: connections }, (_, i) => lane(i)))
const ended = performance.now()
clearInterval(sampler)
clearInterval(progress)

// Every event written during the run must come from an accepted request.
let byRefused = 0
let unexplained = 0
let written = 0
for (let from = before + 1; ; ) {
  const page = (await sim.admin("GET", `/_sim/events?fromPosition=${from}&limit=10000`)).body as {
    events: Array<{ metadata: { requestId?: string } }>
    nextPosition?: number
  }
  for (const e of page.events) {
    written++
    const id = e.metadata.requestId
    if (id !== undefined && refused.has(id)) byRefused++
    else if (id === undefined || !accepted.has(id)) unexplained++
  }
  if (page.nextPosition === undefined) break
  from = page.nextPosition
}
await sim.stop()
rmSync(dir, { recursive: true, force: true })

const elapsed = (ended - started) / 1000
console.log(`fuzz campaign: ${minutes} min, ${connections} connections, seed ${seed}`)
console.log(
  `requests            ${figures.requests.toLocaleString("en-US")} (${Math.round(figures.requests / elapsed).toLocaleString("en-US")}/s)`,
)
console.log(
  `world-replacing     ${figures.world} snapshots, reverts and resets (percent-encoded spellings among them); ${figures.misbehaved} requests with a cut-off, malformed or slow body`,
)
console.log(
  `statuses            ${[...figures.statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ")}`,
)
console.log(`framing errors      ${figures.framing}`)
console.log(
  `5xx                 ${figures.fiveXX} (besides ${figures.unreached} documented 503s for an x-sim-min-position not reached in 2 s)`,
)
console.log(`outside the shape   ${figures.shape}`)
console.log(`hangs               ${figures.hangs} (and ${figures.transport} other transport errors)`)
console.log(`events written      ${written}: ${byRefused} by refused requests, ${unexplained} by no accepted request`)
const half = (ended - started) / 2
// Samples taken while requests were sent (the check of the log after it reads large pages).
const inSecondHalf = samples.filter((m) => m.at - started >= half && m.at <= ended)
const spread = (label: string, values: ReadonlyArray<number>, unit = "MiB") => {
  if (values.length < 2) return console.log(`${label.padEnd(28)}${values.length} samples in the second half`)
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  console.log(
    `${label.padEnd(28)}${lo.toFixed(1)} .. ${hi.toFixed(1)} ${unit} (±${(((hi - lo) / 2 / ((lo + hi) / 2)) * 100).toFixed(1)}% around the middle; first ${values[0]!.toFixed(1)}, last ${values.at(-1)!.toFixed(1)}; ${values.length} samples)`,
  )
}
console.log(`server memory, second half of the run:`)
spread(
  "  RSS as it runs",
  memory.filter((m) => m.at >= half).map((m) => m.bytes / 2 ** 20),
)
const collected = inSecondHalf.flatMap((m) => (m.collected === undefined ? [] : [m.collected]))
spread(
  "  RSS after a full GC",
  collected.map((c) => c.rss),
)
spread(
  "  heap after a full GC",
  collected.map((c) => c.oldUsed),
)
spread(
  "  young generation",
  inSecondHalf.map((m) => m.running.young),
)
spread(
  "  old generation as it runs",
  inSecondHalf.map((m) => m.running.old),
)
if (collected.length > 0)
  console.log(`  forced full GCs            every ${memoryEvery} s, longest ${Math.max(...collected.map((c) => c.gcMs)).toFixed(0)} ms`)
if (values["memory-log"] !== undefined)
  writeFileSync(values["memory-log"], samples.map((m) => JSON.stringify({ ...m, at: Math.round(m.at - started) })).join("\n") + "\n")
for (const f of faults.slice(0, 10)) console.log(`  fault: ${f}`)
process.exitCode = figures.framing + figures.fiveXX + figures.shape + figures.hangs + byRefused + unexplained === 0 ? 0 : 1
