// Control plane: snapshots of the world, reverts to them, and a reset to the world at start-up.
import { RevertNotSupported, SnapshotNotFound, type SnapshotInfo } from "../../snapshots/snapshots.js"
import { ApiError } from "../errors.js"
import { type SimResult, type SimRoute, simRoute } from "./common.js"

export const snapshotJson = (s: SnapshotInfo) => ({
  id: s.id,
  position: Number(s.position),
  time: Math.floor(s.time / 1000),
  timeMs: s.time,
})

const refused = (e: unknown): SimResult => {
  if (e instanceof SnapshotNotFound) return new ApiError(404, "snapshot_not_found", e.message)
  if (e instanceof RevertNotSupported) return new ApiError(409, "not_supported_on_store", e.message)
  throw e
}

export const snapshotRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "POST",
    path: "/_sim/snapshots",
    replacesWorld: true,
    handle: (_, deps) => deps.sim.snapshot().then((s) => ({ status: 201, body: snapshotJson(s) }), refused),
  },
  {
    method: "GET",
    path: "/_sim/snapshots",
    handle: (_, deps) => ({ status: 200, body: { snapshots: deps.sim.snapshots().map(snapshotJson) } }),
  },
  simRoute({
    method: "POST",
    path: "/_sim/snapshots/:id/revert",
    replacesWorld: true,
    handle: ({ params }, deps) => deps.sim.revert(params.id).then((s) => ({ status: 200, body: snapshotJson(s) }), refused),
  }),
  {
    method: "POST",
    path: "/_sim/reset",
    replacesWorld: true,
    handle: (_, deps) =>
      deps.sim
        .reset()
        .then((s) => ({ status: 200, body: { position: Number(s.position), time: Math.floor(s.time / 1000), timeMs: s.time } }), refused),
  },
]
