// Fault registry aggregate: every fault of the control plane in one stream, `faults-registry`.
import type { Decider } from "../shared/decider.js"
import type { FaultCommand } from "./commands.js"
import { decide } from "./decide.js"
import type { FaultEvent } from "./events.js"
import { evolve } from "./evolve.js"
import type { FaultError, FaultsState } from "./state.js"

export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"
export { draw, firesOn } from "./schedule.js"

export const faultsStream = "faults-registry"

export const faultDecider: Decider<FaultCommand, FaultEvent, FaultsState, FaultError> = {
  initialState: { faults: new Map() },
  decide,
  evolve,
  isTerminal: () => false,
}
