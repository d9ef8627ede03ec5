// A real webhook receiver on 127.0.0.1 (node:http, port 0): records every request, answers as the test says,
// and echoes verification challenges unless told otherwise.
import http from "node:http"

export interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly raw: Buffer
  readonly body: any
  readonly at: number
}

export interface Answer {
  readonly status: number
  readonly body?: string
  readonly delayMs?: number
  /** Answer only once this settles (a receiver that hangs until the test lets it go). */
  readonly until?: Promise<void>
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  /** Deliveries only (verification requests left out). */
  readonly deliveries: () => Array<Received>
  readonly verifications: () => Array<Received>
  /** How to answer deliveries (default 200). */
  answer: (r: Received) => Answer
  /** How to answer verification requests (default: 200 echoing the challenge as JSON). */
  answerVerification: (r: Received) => Answer
  /** Resolves once `n` deliveries have arrived (fails after `timeoutMs`). */
  readonly waitFor: (n: number, timeoutMs?: number) => Promise<void>
  readonly close: () => Promise<void>
}

export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<Received> = []
  const waiters: Array<{ n: number; done: () => void }> = []
  const isVerification = (r: Received) => r.body?.type === "verification"
  const deliveries = () => received.filter((r) => !isVerification(r))
  const r: Receiver = {
    url: "",
    received,
    deliveries,
    verifications: () => received.filter(isVerification),
    answer: () => ({ status: 200 }),
    answerVerification: (v) => ({ status: 200, body: JSON.stringify({ challenge: v.body.challenge }) }),
    waitFor: (n, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (deliveries().length >= n) return resolve()
        const timer = setTimeout(() => reject(new Error(`only ${deliveries().length} of ${n} deliveries arrived`)), timeoutMs)
        waiters.push({
          n,
          done: () => {
            clearTimeout(timer)
            resolve()
          },
        })
      }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const raw = Buffer.concat(chunks)
      let body: unknown
      try {
        body = JSON.parse(raw.toString("utf8"))
      } catch {
        body = undefined
      }
      const got: Received = { headers: req.headers, raw, body, at: Date.now() }
      received.push(got)
      const a = isVerification(got) ? r.answerVerification(got) : r.answer(got)
      const send = () => res.writeHead(a.status, { "content-type": "application/json" }).end(a.body ?? "")
      if (a.until !== undefined) void a.until.then(send)
      else if (a.delayMs !== undefined) setTimeout(send, a.delayMs)
      else send()
      const count = deliveries().length
      for (const w of waiters.splice(0)) {
        if (count >= w.n) w.done()
        else waiters.push(w)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return Object.assign(r, { url: `http://127.0.0.1:${port}/hooks` })
}
