// Fault decisions: an id is added once, removed at most once; a hit is recorded only on a fault in force whose
// `times` is not used up (two calls racing for the last hit: one gets it).
import { absurd, accept, reject, type Decision } from "../shared/decider.js"
import type { FaultCommand } from "./commands.js"
import type { FaultEvent } from "./events.js"
import { exhausted } from "./schedule.js"
import type { FaultError, FaultsState } from "./state.js"

export const decide = (c: FaultCommand, s: FaultsState): Decision<FaultEvent, FaultError> => {
  switch (c.type) {
    case "AddFault":
      return s.faults.has(c.fault.faultId)
        ? reject({ _tag: "FaultAlreadyExists", faultId: c.fault.faultId })
        : accept({ type: "FaultAdded", data: { ...c.fault, at: c.now } })
    case "RemoveFault":
      return s.faults.has(c.faultId)
        ? accept({ type: "FaultRemoved", data: { faultId: c.faultId, at: c.now } })
        : reject({ _tag: "FaultNotFound", faultId: c.faultId })
    case "ClearFaults":
      return s.faults.size === 0 ? accept() : accept({ type: "FaultsCleared", data: { faultIds: [...s.faults.keys()], at: c.now } })
    case "RecordFaultHit": {
      const f = s.faults.get(c.faultId)
      if (f === undefined) return reject({ _tag: "FaultNotFound", faultId: c.faultId })
      if (exhausted(f.definition, f.hits)) return reject({ _tag: "FaultExhausted", faultId: c.faultId })
      const { faultId, call, requestId, deliveryId, now } = c
      return accept({ type: "FaultHit", data: { faultId, call, requestId, deliveryId, at: now } })
    }
    default:
      return absurd(c)
  }
}
