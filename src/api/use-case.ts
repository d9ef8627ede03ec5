// The use-case edge: every route that writes runs its use case here. Run it with the request's metadata (a lost
// write race is retried by the decider's runner), run what its events call for (the process managers' follow-ups,
// whose failures are logged, never answered), map failures through the error table (defects logged there), and
// answer only once the read models include its events.
import { Effect } from "effect"
import { FollowUpLog, withFollowUps, type AppendedEvent } from "../process-managers/after-append.js"
import type { SimServices } from "../runtime/simulator.js"
import type { ApiDeps } from "./deps.js"
import { exitToResult, type AppError } from "./error-table.js"
import { isApiError, type ApiError } from "./errors.js"

/**
 * Runs a use case with the simulator, then what its events call for (process managers' follow-ups, whose
 * failures are logged, not answered), and waits until the read models include its events.
 */
export const runCommand = async <A extends { readonly position: bigint; readonly events?: ReadonlyArray<AppendedEvent> }>(
  deps: ApiDeps,
  effect: Effect.Effect<A, AppError, SimServices>,
  meta?: { requestId?: string },
): Promise<A | ApiError> => {
  const followed = Effect.provideService(withFollowUps(effect), FollowUpLog, {
    failed: (f) => deps.log.error({ ...f, ...(meta?.requestId !== undefined ? { requestId: meta.requestId } : {}) }),
  })
  const result = exitToResult(await deps.sim.run(followed, meta))
  if (isApiError(result)) return result
  // The follow-ups waited for the read models already: a position check, not another run, when they are there.
  const runner = deps.sim.runner
  if (runner.halted === undefined && runner.models.position >= result.position) return result
  const synced = exitToResult(await deps.sim.run(deps.sim.runner.awaitPosition(result.position)))
  return isApiError(synced) ? synced : result
}

/** Runs a use case that only answers (a preview): nothing is written, so no follow-ups and no wait; failures mapped. */
export const runQuery = async <A>(deps: ApiDeps, effect: Effect.Effect<A, AppError, SimServices>): Promise<A | ApiError> =>
  exitToResult(await deps.sim.run(effect))
