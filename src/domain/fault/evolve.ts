// Fault registry evolve: total and quiet.
import { absurd } from "../shared/decider.js"
import type { FaultEvent } from "./events.js"
import type { FaultsState } from "./state.js"

export const evolve = (s: FaultsState, e: FaultEvent): FaultsState => {
  switch (e.type) {
    case "FaultAdded": {
      const { at: _at, ...definition } = e.data
      return { faults: new Map(s.faults).set(definition.faultId, { definition, hits: 0, lastCall: 0 }) }
    }
    case "FaultRemoved": {
      const faults = new Map(s.faults)
      faults.delete(e.data.faultId)
      return { faults }
    }
    case "FaultsCleared": {
      const faults = new Map(s.faults)
      for (const id of e.data.faultIds) faults.delete(id)
      return { faults }
    }
    case "FaultHit": {
      const f = s.faults.get(e.data.faultId)
      if (f === undefined) return s
      return { faults: new Map(s.faults).set(e.data.faultId, { ...f, hits: f.hits + 1, lastCall: e.data.call }) }
    }
    default:
      return absurd(e)
  }
}
