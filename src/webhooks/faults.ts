// Which webhook fault (/_sim/faults, `target: "webhook"`) fires on a delivery attempt: the first in force whose
// subscription and event kind match and whose schedule fires on the call. A fault counts the attempts it matches
// on this node (first attempts, retries and redeliveries alike) in the same counts as the API's faults count calls
// (api/pipeline/faults.ts, adapters/fault-calls-file.ts: kept over a restart in a data directory, put back by a
// revert); the schedule is domain/fault/schedule.ts's.
import type { FaultCalls } from "../adapters/fault-calls-file.js"
import { firesOn, type FaultDefinition, type WebhookFaultEffect } from "../domain/fault/index.js"
import type { DeliveryView } from "../projections/outbox.js"

type WebhookFault = Extract<FaultDefinition, { target: "webhook" }>

/** What the worker reads of the faults read model (projections/faults.ts). */
export interface WebhookFaultSource {
  readonly webhook: ReadonlyArray<{ readonly definition: WebhookFault; readonly hits: number; readonly lastCall: number }>
}

export interface FiredFault {
  readonly faultId: string
  /** The matching attempt's number (1-based) the fault fires on. */
  readonly call: number
  readonly effect: WebhookFaultEffect
}

/** Counts of this worker alone, from each fault's last hit: for a worker started without the simulator's. */
const ownCalls = (): Pick<FaultCalls, "next"> => {
  const calls = new Map<string, number>()
  return {
    next: (faultId, lastHitCall) => {
      const call = Math.max(calls.get(faultId) ?? 0, lastHitCall) + 1
      calls.set(faultId, call)
      return call
    },
  }
}

export class WebhookFaults {
  /** Hits fired on this node per fault, which the read model may not show yet. */
  private readonly fired = new Map<string, number>()

  constructor(
    private readonly source: WebhookFaultSource,
    /** The calls counted per fault on this node. */
    private readonly calls: Pick<FaultCalls, "next"> = ownCalls(),
  ) {}

  /** The fault that fires on this attempt of `d`, counted; undefined: none (one length check with no fault). */
  pick(d: DeliveryView): FiredFault | undefined {
    const faults = this.source.webhook
    if (faults.length === 0) return undefined
    for (const f of faults) {
      const { faultId, match } = f.definition
      if (match.webhookId !== d.webhookId || (match.event !== undefined && match.event !== d.notification.kind)) continue
      const call = this.calls.next(faultId, f.lastCall)
      const hits = Math.max(f.hits, this.fired.get(faultId) ?? 0)
      if (!firesOn(f.definition, call, hits)) continue
      this.fired.set(faultId, hits + 1)
      return { faultId, call, effect: f.definition.effect }
    }
    return undefined
  }
}
