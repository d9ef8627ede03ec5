// Fault use cases: add, remove, clear (control plane) and record a hit (the request pipeline, the webhook worker).
import { Effect } from "effect"
import { faultDecider, faultsStream, type FaultDefinition } from "../domain/fault/index.js"
import { runDecider } from "./run-decider.js"
import { Ids, SimClock } from "./services.js"

export type NewFault = FaultDefinition extends infer D ? (D extends FaultDefinition ? Omit<D, "faultId"> : never) : never

export const addFault = Effect.fn("addFault")(function* (input: NewFault) {
  const faultId = yield* (yield* Ids).next("fault")
  const now = yield* (yield* SimClock).now
  const fault = { ...input, faultId } as FaultDefinition
  const r = yield* runDecider(faultDecider, faultsStream, { type: "AddFault", fault, now })
  return { ...r, faultId }
})

export const removeFault = (faultId: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(faultDecider, faultsStream, { type: "RemoveFault", faultId, now })
  })

export const clearFaults = () =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(faultDecider, faultsStream, { type: "ClearFaults", now })
  })

export const recordFaultHit = (hit: { faultId: string; call: number; requestId: string | null; deliveryId: string | null }) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(faultDecider, faultsStream, { type: "RecordFaultHit", ...hit, now })
  })
