// x-sim-as-of: "position:<n>" (includes the event at n) or "time:<unix seconds>"; absent means now.
import type { AsOf } from "../projections/projection.js"
import type { ReadModels } from "../projections/read-models.js"
import { errors, type ApiError } from "./errors.js"

export const parseAsOf = (header: string | undefined, models: ReadModels): AsOf | ApiError => {
  if (header === undefined) return undefined
  const m = /^(position|time):([0-9]{1,20})$/.exec(header.trim())
  if (m === null) return errors.invalidAsOf('x-sim-as-of must be "position:<n>" or "time:<unix seconds>"')
  const n = BigInt(m[2]!)
  if (m[1] === "position") {
    if (n > models.position) return errors.invalidAsOf(`position ${n} is beyond the end of the log (${models.position})`)
    return n
  }
  const ms = n * 1000n
  if (ms > BigInt(Number.MAX_SAFE_INTEGER)) return errors.invalidAsOf("time is out of range")
  return models.timeline.positionAtTime(Number(ms))
}
