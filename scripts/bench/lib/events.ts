// The events the store benchmarks append: built once (untimed) and handed to subject and baseline alike.
import { randomUUID } from "node:crypto"
import type { NewEvent } from "../../../src/store/event-store.js"

export interface Workload {
  readonly streams: ReadonlyArray<string>
  /** The batches in append order: batch i goes to streams[i % streams.length]. */
  readonly batches: ReadonlyArray<ReadonlyArray<NewEvent>>
  /** Index of batch i within its stream (0 for the stream's first append). */
  readonly nth: ReadonlyArray<number>
  /** Events already in the stream before batch i. */
  readonly before: ReadonlyArray<number>
}

/** A deposit-like event of a realistic size (~300 bytes of JSON). */
export const benchEvent = (stream: string, n: number): NewEvent => ({
  id: randomUUID(),
  type: "BenchDepositCredited",
  data: {
    vaultAccountId: stream,
    assetId: "ETH_TEST5",
    amount: "1250000000000000000",
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    confirmations: 12,
  },
  metadata: { at: 1_767_225_600_000 + n * 1000, schemaVersion: 1, requestId: `req-${n}`, correlationId: `corr-${n}` },
})

/** `appends` appends of `batchSize` events, round-robin over `streamCount` streams. */
export const makeWorkload = (streamCount: number, appends: number, batchSize: number): Workload => {
  const streams = Array.from({ length: streamCount }, (_, s) => `benchAccount-${s.toString(16).padStart(8, "0")}`)
  const batches: Array<ReadonlyArray<NewEvent>> = []
  const nth: Array<number> = []
  const before: Array<number> = []
  for (let i = 0; i < appends; i++) {
    const stream = streams[i % streamCount]!
    const k = Math.floor(i / streamCount)
    batches.push(Array.from({ length: batchSize }, (_, j) => benchEvent(stream, i * batchSize + j)))
    nth.push(k)
    before.push(k * batchSize)
  }
  return { streams, batches, nth, before }
}
