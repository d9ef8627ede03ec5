// Fault commands: add one, remove one, clear all, record a hit.
import type { SimInstant } from "../shared/sim-time.js"
import type { FaultDefinition } from "./events.js"

export type FaultCommand =
  | { readonly type: "AddFault"; readonly fault: FaultDefinition; readonly now: SimInstant }
  | { readonly type: "RemoveFault"; readonly faultId: string; readonly now: SimInstant }
  | { readonly type: "ClearFaults"; readonly now: SimInstant }
  | {
      readonly type: "RecordFaultHit"
      readonly faultId: string
      readonly call: number
      readonly requestId: string | null
      readonly deliveryId: string | null
      readonly now: SimInstant
    }
