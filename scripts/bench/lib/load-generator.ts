// The load generator: a child process (forked by http.ts) that runs autocannon jobs sent over IPC, so the
// client's work never runs on the event loop of the server being measured.
import autocannon, { type AutocannonResult } from "autocannon"
import { pathToFileURL } from "node:url"
import { buildRequest, type LoadJob, type LoadResult, type RequestModule } from "./requests.js"

const runJob = async (job: LoadJob): Promise<LoadResult> => {
  const common = {
    url: job.origin,
    connections: job.connections,
    pipelining: job.pipelining,
    duration: job.durationMs / 1000,
    // autocannon stops at the first sample tick after the duration: with its default 1 s ticks a 0.4 s window
    // ran for 1 s. Windows under a second tick once, at their end.
    sampleInt: Math.min(1000, job.durationMs),
    timeout: 10,
  }
  let result: AutocannonResult
  if (job.requestModule !== undefined) {
    // Requests that vary: built and signed one by one in autocannon's setupRequest hook.
    const builder = ((await import(pathToFileURL(job.requestModule).href)) as RequestModule).default(job.requestParams)
    let n = job.firstN
    result = await autocannon({
      ...common,
      requests: [
        {
          setupRequest: (req) => {
            const built = buildRequest(builder(n++), job.sign)
            // autocannon keeps the previous request's fields: drop a body the new one lacks.
            return { ...req, method: built.method, path: built.path, headers: built.headers, body: built.body ?? "" }
          },
        },
      ],
    })
  } else {
    // One request repeated: its signature depends only on the timestamp (UNIX seconds), so each connection's
    // request is re-signed when the second changes: the server sees exactly the bytes per-request signing
    // would send, and the client spends its time sending, not rebuilding.
    let second = -1
    let headers: Record<string, string> = {}
    const signedNow = () => {
      const now = Math.floor(Date.now() / 1000)
      if (now !== second) {
        second = now
        headers = buildRequest(job.request, job.sign).headers
      }
      return headers
    }
    const built = buildRequest(job.request, job.sign)
    const signedAt = new WeakMap<object, Record<string, string>>()
    const tracker = autocannon({
      ...common,
      method: built.method,
      url: job.origin + built.path,
      headers: signedNow(),
      ...(built.body !== undefined ? { body: built.body } : {}),
    })
    if (job.sign !== undefined) {
      tracker.on("response", (client) => {
        const h = signedNow()
        if (signedAt.get(client) !== h) {
          signedAt.set(client, h)
          client.setHeaders(h)
        }
      })
    }
    result = await tracker
  }
  const statusCodes: Record<string, number> = {}
  for (const [code, v] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = v.count
  return {
    id: job.id,
    ok: result["2xx"],
    perSecond: result["2xx"] / result.duration,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    statusCodes,
    sent: result.requests.sent,
  }
}

// Only as the forked child (the runner itself may have an IPC channel to tsx).
if (process.argv.includes("--bench-load-generator") && process.send !== undefined) {
  process.on("message", (job: LoadJob) => {
    runJob(job).then(
      (result) => process.send!({ ok: true, result }),
      (error: unknown) =>
        process.send!({ ok: false, id: job.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    )
  })
  process.send({ ready: true })
}
