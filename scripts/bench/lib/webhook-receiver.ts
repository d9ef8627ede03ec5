// A webhook receiver for benchmarks, in its own process (forked, like the load generator): 200 to deliveries,
// the challenge echoed to verifications, and a count of the deliveries it acknowledged. "lean" (default) answers
// straight from the socket, parsing the Content-Length framing the simulator sends, so that on a machine of two
// cores the run measures the simulator rather than a co-located receiver's HTTP stack; "node-http" is an
// ordinary node:http server, for comparison.
import { fork, type ChildProcess } from "node:child_process"
import http from "node:http"
import net from "node:net"
import { fileURLToPath } from "node:url"

export type ReceiverKind = "lean" | "node-http"

/** A delivery as the receiver got it: its body and signature, for a bare client to send the same bytes. */
export interface ReceivedSample {
  readonly body: string
  readonly signature: string
}

export interface BenchReceiver {
  readonly url: string
  /** Deliveries acknowledged with 200 so far. */
  readonly count: () => Promise<number>
  /** The last delivery received (undefined before the first). */
  readonly sample: () => Promise<ReceivedSample | undefined>
  readonly close: () => Promise<void>
}

const VERIFICATION = '{"type":"verification"'

type OnDelivery = (head: () => string, body: () => string) => void

const lean = (onDelivery: OnDelivery): net.Server =>
  net.createServer((socket) => {
    socket.setNoDelay(true)
    socket.on("error", () => {})
    let buf: Buffer = Buffer.alloc(0)
    socket.on("data", (d: Buffer) => {
      buf = buf.length === 0 ? d : Buffer.concat([buf, d])
      let out = ""
      for (;;) {
        const i = buf.indexOf("\r\n\r\n")
        if (i < 0) break
        const m = /content-length: *(\d+)/i.exec(buf.toString("latin1", 0, i))
        const end = i + 4 + (m ? Number(m[1]) : 0)
        if (buf.length < end) break
        const verification = buf.toString("latin1", i + 4, i + 4 + VERIFICATION.length) === VERIFICATION
        if (verification) {
          const body = buf.toString("utf8", i + 4, end)
          out += `HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
        } else {
          const at = buf
          onDelivery(
            () => at.toString("latin1", 0, i),
            () => at.toString("utf8", i + 4, end),
          )
          out += "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        }
        buf = buf.subarray(end)
      }
      if (out.length > 0) socket.write(out)
    })
  })

const nodeHttp = (onDelivery: OnDelivery): http.Server => {
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString()
      if (text.startsWith(VERIFICATION)) return void res.writeHead(200).end(text)
      onDelivery(
        () => `x-signature: ${String(req.headers["x-signature"])}`,
        () => text,
      )
      res.writeHead(200, { "content-length": "0" }).end()
    })
  })
  server.keepAliveTimeout = 60_000
  return server
}

export const startBenchReceiver = async (kind: ReceiverKind = "lean"): Promise<BenchReceiver> => {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--bench-webhook-receiver", kind], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port))
    child.once("exit", (code) => reject(new Error(`receiver exited (${code})`)))
  })
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    count: () =>
      new Promise<number>((resolve) => {
        child.once("message", (m) => resolve((m as { deliveries: number }).deliveries))
        child.send("count")
      }),
    sample: () =>
      new Promise<ReceivedSample | undefined>((resolve) => {
        child.once("message", (m) => resolve((m as { sample?: ReceivedSample }).sample))
        child.send("sample")
      }),
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => done())
        child.kill()
      }),
  }
}

if (process.argv.includes("--bench-webhook-receiver") && process.send !== undefined) {
  let deliveries = 0
  // The last delivery's bytes, decoded only when asked for.
  let last: { head: () => string; body: () => string } | undefined
  const onDelivery: OnDelivery = (head, body) => {
    deliveries++
    last = { head, body }
  }
  const server = process.argv.includes("node-http") ? nodeHttp(onDelivery) : lean(onDelivery)
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as net.AddressInfo).port }))
  process.on("message", (m) => {
    if (m !== "sample") return void process.send!({ deliveries })
    const signature = last === undefined ? undefined : /^x-signature: *(.*)$/im.exec(last.head())?.[1]?.trim()
    process.send!({ sample: last === undefined || signature === undefined ? undefined : { body: last.body(), signature } })
  })
}
