// `serve --fault '<json>'` (repeatable): the faults a server starts with, as POST /_sim/faults takes them. They
// replace the faults a data directory's log had in force, so a restart with the same flags has the same faults.
import { Exit } from "effect"
import { addFault, clearFaults, type NewFault } from "../commands/faults.js"
import { decodeFault } from "../api/sim/fault-input.js"
import { isApiError } from "../api/errors.js"
import type { Simulator } from "../runtime/simulator.js"
import { CliFailure, UsageError } from "./failure.js"

/** Each --fault decoded, or a usage error naming the flag and what is wrong. */
export const parseFaults = (given: ReadonlyArray<string>): ReadonlyArray<NewFault> =>
  given.map((text) => {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new UsageError(`--fault ${text}: not JSON`)
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw new UsageError(`--fault ${text}: must be a JSON object`)
    const fault = decodeFault(json as Record<string, unknown>)
    if (isApiError(fault)) {
      const details = fault.details.map((d) => `${d.attribute} ${d.message}`).join("; ")
      throw new UsageError(`--fault ${text}: ${details === "" ? fault.message : details}`)
    }
    return fault
  })

export const setFaults = async (sim: Simulator, faults: ReadonlyArray<NewFault>): Promise<void> => {
  if (faults.length === 0) return
  for (const step of [clearFaults(), ...faults.map((f) => addFault(f))]) {
    const exit = await sim.run(step)
    if (Exit.isFailure(exit)) throw new CliFailure(`cannot set the --fault faults: ${String(exit.cause)}`)
    await sim.run(sim.runner.awaitPosition(exit.value.position))
  }
  for (const f of faults)
    if (f.target === "webhook" && sim.models.outbox.subscriptions.get(f.match.webhookId) === undefined)
      throw new CliFailure(`--fault: no webhook subscription ${f.match.webhookId}`)
}
