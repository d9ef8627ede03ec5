// Serves an app on 127.0.0.1 with an OS-chosen port, for tests that need a real socket.
import { serve, type ServerType } from "@hono/node-server"
import type { Hono } from "hono"

export const listen = (app: Hono): Promise<{ url: string; close: () => Promise<void> }> =>
  new Promise((resolve) => {
    const server: ServerType = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    )
  })
