// Control plane: health, simulated clock, and the raw event log.
import type { RecordedEvent } from "../../store/event-store.js"
import { exitToResult } from "../error-table.js"
import { errors, isApiError } from "../errors.js"
import { haltMessage } from "../../projections/runner.js"
import type { SimRoute } from "./common.js"

export const eventJson = (e: RecordedEvent) => ({
  position: Number(e.position),
  stream: e.stream,
  revision: Number(e.revision),
  id: e.id,
  type: e.type,
  data: e.data,
  metadata: e.metadata,
})

const clockJson = (now: number, frozen: boolean) => ({ now: Math.floor(now / 1000), nowMs: now, frozen })

export const logRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/health",
    public: true,
    handle: (_, deps) => {
      const halted = deps.sim.runner.halted
      if (halted === undefined)
        return { status: 200, body: { status: "ok", store: deps.sim.store.kind, position: Number(deps.sim.models.position) } }
      // Serving still: reads answer from the models as they were before the event they could not apply.
      return {
        status: 503,
        body: {
          status: "halted",
          store: deps.sim.store.kind,
          position: Number(halted.position) - 1,
          error: {
            code: "read_models_halted",
            message: haltMessage(halted),
            position: Number(halted.position),
            stream: halted.stream,
            type: halted.type,
          },
        },
      }
    },
  },
  {
    method: "GET",
    path: "/_sim/clock",
    handle: (_, deps) => ({ status: 200, body: clockJson(deps.sim.clock.now(), deps.sim.clock.isFrozen()) }),
  },
  {
    method: "PUT",
    path: "/_sim/clock",
    handle: ({ body }, deps) => {
      if (body.mode !== "frozen" && body.mode !== "wall")
        return errors.invalidData([{ attribute: "mode", message: 'must be "frozen" or "wall"' }])
      if (body.mode === "frozen") deps.sim.clock.freeze()
      else deps.sim.clock.follow()
      return { status: 200, body: clockJson(deps.sim.clock.now(), deps.sim.clock.isFrozen()) }
    },
  },
  {
    method: "POST",
    path: "/_sim/clock/advance",
    handle: async ({ body }, deps) => {
      const seconds = body.seconds
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0 || seconds > 10 * 365 * 86400)
        return errors.invalidData([{ attribute: "seconds", message: "must be a number of seconds between 0 and ten years" }])
      const now = deps.sim.clock.advance(Math.round(seconds * 1000))
      const after = exitToResult(await deps.sim.run(deps.sim.afterClockAdvance()))
      if (isApiError(after)) return after
      return { status: 200, body: clockJson(now, deps.sim.clock.isFrozen()) }
    },
  },
  {
    method: "GET",
    path: "/_sim/events",
    handle: async ({ query }, deps) => {
      const from = query.fromPosition ?? "0"
      const limit = query.limit ?? "1000"
      if (!/^[0-9]{1,20}$/.test(from)) return errors.invalidData([{ attribute: "fromPosition", message: "must be a non-negative integer" }])
      if (!/^[0-9]{1,5}$/.test(limit) || Number(limit) < 1 || Number(limit) > 10_000)
        return errors.invalidData([{ attribute: "limit", message: "must be an integer from 1 to 10000" }])
      // One event more than asked: its position starts the next page. Positions are opaque (on EventStoreDB, byte
      // offsets where `last + 1` is no valid position), so the next page never starts at a computed one.
      const read = exitToResult(await deps.sim.run(deps.sim.store.readAll({ fromPosition: BigInt(from), maxCount: Number(limit) + 1 })))
      if (isApiError(read)) return read
      const next = read[Number(limit)]
      return {
        status: 200,
        body: {
          events: read.slice(0, Number(limit)).map(eventJson),
          ...(next !== undefined ? { nextPosition: Number(next.position) } : {}),
        },
      }
    },
  },
]
