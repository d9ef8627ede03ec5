// Control plane: faults (`/_sim/faults`): API calls answered 429/5xx, delayed, dropped or left unanswered, and
// webhook deliveries duplicated, delayed, reordered or failed; each fault and each hit is an event (docs/faults.md).
import { addFault, clearFaults, removeFault } from "../../commands/faults.js"
import type { FaultView } from "../../projections/faults.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import { runCommand } from "../use-case.js"
import type { SimRoute } from "./common.js"
import { decodeFault } from "./fault-input.js"

export const faultJson = (f: FaultView) => {
  const { faultId, ...rest } = f.definition
  return { id: faultId, ...rest, hits: f.hits, addedAt: f.addedAt }
}

const listed = (deps: ApiDeps) => ({ faults: deps.sim.models.faults.all.map(faultJson) })

export const faultRoutes: ReadonlyArray<SimRoute> = [
  { method: "GET", path: "/_sim/faults", handle: (_, deps) => ({ status: 200, body: listed(deps) }) },
  {
    method: "POST",
    path: "/_sim/faults",
    handle: async ({ body }, deps) => {
      const fault = decodeFault(body)
      if (isApiError(fault)) return fault
      if (fault.target === "webhook") {
        const s = deps.sim.models.outbox.subscriptions.get(fault.match.webhookId)
        if (s === undefined || s.status === "deleted") return errors.resourceNotFound("webhook subscription")
      }
      const r = await runCommand(deps, addFault(fault))
      if (isApiError(r)) return r
      return { status: 201, body: faultJson(deps.sim.models.faults.get(r.faultId)!) }
    },
  },
  {
    method: "DELETE",
    path: "/_sim/faults",
    handle: async (_, deps) => {
      const count = deps.sim.models.faults.all.length
      const r = await runCommand(deps, clearFaults())
      return isApiError(r) ? r : { status: 200, body: { cleared: count } }
    },
  },
  {
    method: "DELETE",
    path: "/_sim/faults/:id",
    handle: async ({ params }, deps) => {
      const r = await runCommand(deps, removeFault(params.id!))
      return isApiError(r) ? r : { status: 200, body: { id: params.id, removed: true } }
    },
  },
]
