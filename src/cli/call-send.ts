// One HTTP request of `custody-sim call`, answered whole. Sent with node:http rather than fetch: loading fetch's
// client costs a command that runs once ~0.1-1 s of start-up.
import { request } from "node:http"

export const send = (
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const req = request(
      new URL(url),
      { method, headers: body.length > 0 ? { ...headers, "content-length": String(Buffer.byteLength(body)) } : headers },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
        res.on("error", reject)
      },
    )
    req.on("error", reject)
    req.end(body.length > 0 ? body : undefined)
  })
