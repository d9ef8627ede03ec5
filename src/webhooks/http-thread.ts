// The delivery thread: runs the webhook HTTP client (./http.ts) off the API's event loop. It takes batches of
// requests from ./thread-transport.ts and answers with batches of outcomes; signing, sockets and answers are its work.
import { parentPort, workerData } from "node:worker_threads"
import { makeHttpTransport, type PostRequest, type PostResult, type TransportOptions } from "./http.js"

export type ThreadRequest = readonly [id: number, request: PostRequest]
export type ThreadResult = readonly [id: number, result: PostResult]

if (parentPort !== null && (workerData as { webhookThread?: TransportOptions } | undefined)?.webhookThread !== undefined) {
  const port = parentPort
  const transport = makeHttpTransport((workerData as { webhookThread: TransportOptions }).webhookThread)
  let results: Array<ThreadResult> = []
  // Outcomes of one turn go back in one message.
  const send = () => {
    const batch = results
    results = []
    port.postMessage(batch)
  }
  port.on("message", (batch: ReadonlyArray<ThreadRequest> | "close") => {
    if (batch === "close") {
      transport.close()
      return port.close()
    }
    for (const [id, request] of batch)
      transport.post(request, (result) => {
        if (results.length === 0) setImmediate(send)
        results.push([id, result])
      })
  })
}
