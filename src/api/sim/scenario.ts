// Control plane: GET /_sim/export (the log as JSON lines) and POST /_sim/import (into a fresh simulator).
import { createInterface } from "node:readline"
import { Readable } from "node:stream"
import { Effect } from "effect"
import { digestOf } from "../digest/digest.js"
import { exportLines } from "../../event-log/export.js"
import { LogRejected } from "../../event-log/format.js"
import { appendChecked, checkLog, HeaderRefused, StoreNotFresh } from "../../event-log/replay.js"
import type { Simulator } from "../../runtime/simulator.js"
import { ApiError, errors } from "../errors.js"
import type { SimRoute } from "./common.js"
import { shownDigest } from "../../audit/digest-format.js"

export const JSON_LINES = "application/x-ndjson; charset=utf-8"

const notFresh = (head: bigint) =>
  new ApiError(
    409,
    "store_not_empty",
    `Import needs a fresh simulator: its log must be empty, and it holds events up to position ${head}. Start one with no workspace (custody-sim serve --empty) or use custody-sim replay.`,
  )

// One import at a time per simulator: a second one would interleave its appends with the first's.
const importing = new WeakSet<Simulator>()

export const scenarioRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/export",
    handle: ({ query }, deps) => {
      const unknown = Object.keys(query).filter((k) => k !== "includeSecrets")
      if (unknown.length > 0) return errors.invalidData(unknown.map((k) => ({ attribute: k, message: "is not a parameter of the export" })))
      const include = query.includeSecrets
      if (include !== undefined && include !== "true" && include !== "false")
        return errors.invalidData([{ attribute: "includeSecrets", message: 'must be "true" or "false"' }])
      // Without secrets, without the seed too: every generated secret and the admin token derive from it.
      const includeSecrets = include === "true"
      const lines = exportLines(
        deps.sim.store,
        { seed: includeSecrets ? deps.sim.seed : null, apiVersion: deps.defaultApiVersion },
        { includeSecrets },
      )
      const encoder = new TextEncoder()
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const next = await lines.next()
          if (next.done) controller.close()
          else controller.enqueue(encoder.encode(`${next.value}\n`))
        },
        cancel: async () => {
          await lines.return(undefined)
        },
      })
      return {
        response: new Response(body, {
          status: 200,
          headers: { "content-type": JSON_LINES, "content-disposition": 'attachment; filename="custody-sim-events.jsonl"' },
        }),
      }
    },
  },
  {
    method: "POST",
    path: "/_sim/import",
    rawBody: true,
    entersGateItself: true,
    handle: async ({ c, query }, deps) => {
      const sim = deps.sim
      const until = query.until
      if (until !== undefined && !/^(0|[1-9][0-9]{0,18})$/.test(until))
        return errors.invalidData([{ attribute: "until", message: "must be a position of the log (a non-negative integer)" }])
      if (importing.has(sim)) return new ApiError(409, "import_in_progress", "Another import into this simulator is running.")
      const head = await Effect.runPromise(sim.store.headPosition)
      if (head >= 0n || sim.models.position >= 0n) return notFresh(head >= 0n ? head : sim.models.position)
      importing.add(sim)
      try {
        // Read as a stream of lines: a log has no size limit (the control plane's body limit skips this route). The
        // whole log is read and checked outside the simulator's gate (a body still arriving holds nothing back), then
        // written inside it.
        const body = c.req.raw.body
        const lines = createInterface({
          input: body === null ? Readable.from([]) : Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>),
          crlfDelay: Infinity,
        })
        const checked = await checkLog(lines, {
          onChecked: (n) => deps.log.info(`import: ${n.toLocaleString("en-US")} events checked`),
          ...(until !== undefined ? { until: BigInt(until) } : {}),
          acceptHeader: (h) =>
            h.seed !== null && h.seed !== sim.seed
              ? `the log was recorded with seed ${JSON.stringify(h.seed)}, this simulator has ${JSON.stringify(sim.seed)}: start it with --seed ${JSON.stringify(h.seed)}`
              : undefined,
        })
        return await sim.gate.shared(async () => {
          // Written meanwhile (a control-plane write while the log arrived)? Then it is not fresh any more.
          if (sim.models.position >= 0n) return notFresh(sim.models.position)
          const loaded = await appendChecked(checked, sim.store)
          await sim.run(sim.runner.pull)
          sim.ids.restore(sim.models.lastSeq)
          // The imported log may hold events of later epochs (reverts in the world it was exported from): go on in its last.
          sim.ids.reachEpoch(sim.models.lastEpoch)
          const lag = sim.models.timeline.headTime - sim.clock.now()
          if (lag > 0) sim.clock.advance(lag)
          const filled = loaded.filled.apiKeys.length + loaded.filled.webhooks.length > 0 ? { secrets: loaded.filled } : {}
          return {
            status: 200,
            body: {
              events: loaded.events,
              position: Number(sim.models.position),
              digest: shownDigest(await digestOf(sim, undefined)),
              ...filled,
            },
          }
        })
      } catch (e) {
        if (e instanceof LogRejected)
          return new ApiError(400, "invalid_event_log", e.message, [{ attribute: `line ${e.line}`, message: e.reason }])
        if (e instanceof HeaderRefused) return new ApiError(409, "seed_mismatch", e.message)
        if (e instanceof StoreNotFresh) return notFresh(e.head)
        throw e
      } finally {
        importing.delete(sim)
      }
    },
  },
]
