// GET /_sim/log: the event log filtered by stream (exact or category prefix) and type, newest last, paged by
// position; a page scans a bounded stretch of the log, so a rare type costs several pages, never one huge read.
import { exitToResult } from "../error-table.js"
import { errors, isApiError } from "../errors.js"
import { parseAsOf } from "../as-of.js"
import { eventJson } from "../sim/log.js"
import type { SimRoute } from "../sim/common.js"

const SCAN = 20_000
const BATCH = 1_000

export const logSearchRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/log",
    handle: async ({ query }, deps) => {
      const from = query.fromPosition ?? "0"
      const limit = Number(query.limit ?? "50")
      if (!/^[0-9]{1,20}$/.test(from)) return errors.invalidData([{ attribute: "fromPosition", message: "must be a non-negative integer" }])
      if (!Number.isInteger(limit) || limit < 1 || limit > 500)
        return errors.invalidData([{ attribute: "limit", message: "must be an integer from 1 to 500" }])
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      if (isApiError(asOf)) return asOf
      const end = asOf ?? deps.sim.models.position
      const stream = query.stream ?? ""
      const types = query.type === undefined || query.type === "" ? undefined : new Set(query.type.split(","))
      const matches = (e: { stream: string; type: string }) =>
        (stream === "" || e.stream === stream || e.stream.startsWith(stream.endsWith("-") ? stream : `${stream}-`)) &&
        (types === undefined || types.has(e.type))
      const out: Array<ReturnType<typeof eventJson>> = []
      let position = BigInt(from)
      // Positions are opaque (EventStoreDB: byte offsets), so the next batch starts at the last one read, skipped.
      let skip: bigint | undefined
      let scanned = 0
      for (;;) {
        if (position > end) return { status: 200, body: { events: out, scanned } }
        const got = exitToResult(await deps.sim.run(deps.sim.store.readAll({ fromPosition: position, maxCount: BATCH })))
        if (isApiError(got)) return got
        const read = skip !== undefined && got[0]?.position === skip ? got.slice(1) : got
        if (read.length === 0) return { status: 200, body: { events: out, scanned } }
        for (const e of read) {
          if (e.position > end) return { status: 200, body: { events: out, scanned } }
          scanned++
          if (matches(e)) {
            if (out.length === limit) return { status: 200, body: { events: out, scanned, nextPosition: Number(e.position) } }
            out.push(eventJson(e))
          }
        }
        const last = read[read.length - 1]!.position
        if (got.length < BATCH) return { status: 200, body: { events: out, scanned } }
        if (scanned >= SCAN) {
          const more = exitToResult(await deps.sim.run(deps.sim.store.readAll({ fromPosition: last, maxCount: 2 })))
          const next = isApiError(more) ? undefined : more.find((e) => e.position > last)
          return {
            status: 200,
            body: { events: out, scanned, ...(next !== undefined && next.position <= end ? { nextPosition: Number(next.position) } : {}) },
          }
        }
        position = last
        skip = last
      }
    },
  },
]
