// The webhook HTTP client on its own thread (./http-thread.ts), behind the same Transport interface: the API's
// event loop only hands over request batches and takes outcome batches, while signing, socket writes and reads,
// and answer parsing (most of a delivery's CPU) run beside it. The thread starts at the first request.
import { Worker } from "node:worker_threads"
import type { PostRequest, PostResult, Transport, TransportOptions } from "./http.js"
import type { ThreadRequest, ThreadResult } from "./http-thread.js"

const threadModule = new URL(import.meta.url.endsWith(".ts") ? "./http-thread.ts" : "./http-thread.js", import.meta.url)

// Compiled, the thread loads its module directly; from sources (tsx, vitest), through tsx's loader.
const startThread = (options: TransportOptions): Worker => {
  const workerData = { webhookThread: options }
  if (!threadModule.href.endsWith(".ts")) return new Worker(threadModule, { workerData })
  const code = `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(threadModule.href)}, ${JSON.stringify(import.meta.url)}))`
  return new Worker(code, { eval: true, workerData })
}

export const makeThreadTransport = (options: TransportOptions): Transport => {
  let thread: Worker | undefined
  let nextId = 0
  const callbacks = new Map<number, (result: PostResult) => void>()
  let batch: Array<ThreadRequest> = []

  // Requests in flight when the thread stops are network errors: recorded as failed attempts, retried later.
  const lost = (reason: string) => {
    thread = undefined
    const pending = [...callbacks.values()]
    callbacks.clear()
    for (const callback of pending) callback({ statusCode: null, error: reason, durationMs: 0, body: "" })
  }

  const flush = () => {
    const requests = batch
    batch = []
    if (thread === undefined) {
      const t = startThread(options)
      t.unref()
      t.on("message", (results: ReadonlyArray<ThreadResult>) => {
        for (const [id, result] of results) {
          const callback = callbacks.get(id)
          callbacks.delete(id)
          callback?.(result)
        }
      })
      t.on("error", (e) => thread === t && lost(`delivery thread failed: ${e.message}`))
      t.on("exit", () => thread === t && lost("delivery thread stopped"))
      thread = t
    }
    thread.postMessage(requests)
  }

  return {
    post: (request: PostRequest, callback: (result: PostResult) => void) => {
      const id = ++nextId
      callbacks.set(id, callback)
      if (batch.length === 0) queueMicrotask(flush)
      batch.push([id, request])
    },
    close: () => {
      const t = thread
      thread = undefined
      batch = []
      callbacks.clear()
      if (t === undefined) return
      t.postMessage("close")
      // The thread ends once its sockets are gone; terminate it should it linger.
      setTimeout(() => void t.terminate(), 1_000).unref()
    },
  }
}
