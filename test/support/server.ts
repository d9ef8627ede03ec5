// Serves an app on 127.0.0.1 with an OS-chosen port, for tests that need a real socket: the request listener
// `custody-sim serve` uses (src/api/node-listener.ts), so a test meets the server's own framing and closing.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Hono } from "hono"
import { type DrainBounds, nodeListener } from "../../src/api/node-listener.js"

export const listen = (app: Hono, options: { drain?: DrainBounds } = {}): Promise<{ url: string; close: () => Promise<void> }> =>
  new Promise((resolve) => {
    const server = createServer(nodeListener(app.fetch, { hostname: "127.0.0.1", ...options }))
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    )
  })
