// Reading one HTTP/1.1 answer off the front of a connection's bytes: the head, interim 1xx answers, and a body
// framed by Content-Length, chunked encoding or the connection's close. What follows it belongs to the next answer.
const CRLF2 = Buffer.from("\r\n\r\n")
const CRLF = Buffer.from("\r\n")
const MAX_HEAD = 65_536
const EMPTY = Buffer.alloc(0)

type Mode = "head" | "length" | "close" | "size" | "chunk" | "trailer" | "done"

/** Answer framing, from the head: how the body ends, and whether the connection may be reused. */
const framing = (lines: ReadonlyArray<string>, status: number, minor: string) => {
  let length = -1
  let chunked = false
  let connection = ""
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":")
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim().toLowerCase()
    if (name === "content-length") length = Number(value)
    else if (name === "transfer-encoding") chunked = value.split(",").some((x) => x.trim() === "chunked")
    else if (name === "connection") connection = value
  }
  const keepAlive = minor === "1" ? connection !== "close" : connection === "keep-alive"
  if (status === 204 || status === 304) return { mode: "done" as const, length: 0, keepAlive }
  if (chunked) return { mode: "size" as const, length: 0, keepAlive }
  if (length >= 0 && Number.isSafeInteger(length)) return { mode: "length" as const, length, keepAlive }
  return { mode: "close" as const, length: 0, keepAlive: false }
}

/** One answer being read: `read` takes the connection's bytes and gives back those past the answer's end. */
export class AnswerReader {
  status = 0
  keepAlive = true
  /** Some bytes of this answer arrived (a request answered in part was seen by the server). */
  received = false
  /** Set when the answer cannot be read; the connection is then unusable. */
  error: string | null = null
  private mode: Mode = "head"
  private remaining = 0
  private readonly kept: Array<Buffer> = []
  private keptBytes = 0

  /** `keepBody`: bytes of the body to keep (the verification handshake reads them); 0 keeps none. */
  constructor(private readonly keepBody: number) {}

  get done(): boolean {
    return this.mode === "done"
  }

  /** The answer ends with the connection (no Content-Length, not chunked). */
  get closeDelimited(): boolean {
    return this.mode === "close"
  }

  body(): string {
    return this.kept.length === 0 ? "" : Buffer.concat(this.kept).toString("utf8")
  }

  read(input: Buffer): Buffer {
    let buf = input
    if (buf.length > 0) this.received = true
    for (;;) {
      if (this.mode === "head") {
        const i = buf.indexOf(CRLF2)
        if (i < 0) {
          if (buf.length > MAX_HEAD) this.error = "answer head too large"
          return buf
        }
        const lines = buf.toString("latin1", 0, i).split("\r\n")
        buf = buf.subarray(i + 4)
        const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? "")
        if (m === null) {
          this.error = `malformed answer: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`
          return buf
        }
        this.status = Number(m[2])
        if (this.status >= 100 && this.status < 200) continue
        const f = framing(lines, this.status, m[1]!)
        this.mode = f.mode
        this.remaining = f.length
        this.keepAlive = f.keepAlive
      }
      if (this.mode === "length") {
        const n = Math.min(this.remaining, buf.length)
        this.keep(buf.subarray(0, n))
        buf = buf.subarray(n)
        this.remaining -= n
        if (this.remaining > 0) return buf
        this.mode = "done"
      }
      if (this.mode === "close") {
        this.keep(buf)
        return EMPTY
      }
      while (this.mode === "size" || this.mode === "chunk" || this.mode === "trailer") {
        if (this.mode === "chunk") {
          if (buf.length < this.remaining + 2) return buf
          this.keep(buf.subarray(0, this.remaining))
          buf = buf.subarray(this.remaining + 2)
          this.mode = "size"
          continue
        }
        const i = buf.indexOf(CRLF)
        if (i < 0) return buf
        if (this.mode === "size") {
          this.remaining = parseInt(buf.toString("latin1", 0, i).split(";")[0]!, 16)
          if (!Number.isSafeInteger(this.remaining) || this.remaining < 0) {
            this.error = "malformed chunked answer"
            return buf
          }
          this.mode = this.remaining === 0 ? "trailer" : "chunk"
        } else if (i === 0) this.mode = "done"
        buf = buf.subarray(i + 2)
      }
      if (this.mode === "done") return buf
    }
  }

  private keep(b: Buffer): void {
    if (this.keptBytes >= this.keepBody || b.length === 0) return
    const part = b.subarray(0, this.keepBody - this.keptBytes)
    this.kept.push(part)
    this.keptBytes += part.length
  }
}
