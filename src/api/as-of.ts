// x-sim-as-of: "position:<n>" (includes the event at n) or "time:<unix seconds>"; absent means now.
import type { AsOf } from "../projections/projection.js"
import type { ReadModels } from "../projections/read-models.js"
import { ApiError, detail } from "./errors.js"

/** `attribute` names where the value came from (the header, or a control-plane query parameter such as `asOf`). */
export const parseAsOf = (value: string | undefined, models: ReadModels, attribute = "x-sim-as-of"): AsOf | ApiError => {
  if (value === undefined) return undefined
  const invalid = (message: string) => new ApiError(400, "invalid_sim_as_of", message, [detail(attribute, message)])
  const m = /^(position|time):([0-9]{1,20})$/.exec(value.trim())
  if (m === null) return invalid(`${attribute} must be "position:<n>" or "time:<unix seconds>"`)
  const n = BigInt(m[2]!)
  if (m[1] === "position") {
    if (n > models.position) return invalid(`position ${n} is beyond the end of the log (${models.position})`)
    return n
  }
  const ms = n * 1000n
  if (ms > BigInt(Number.MAX_SAFE_INTEGER)) return invalid("time is out of range")
  // A time after the last event answers as now: nothing has happened since.
  return models.timeline.positionAtTime(Number(ms))
}
