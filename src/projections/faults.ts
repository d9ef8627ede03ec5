// Faults read model: the faults in force, each with its hits, in the order they were added. The lists are replaced
// on each change, never changed in place: the request pipeline reads `api` on every call, one length check when empty.
import type { FaultDefinition, FaultEvent } from "../domain/fault/index.js"
import type { StoredOf } from "../events/stored-event.js"

export const faultsFoldTypes = ["FaultAdded", "FaultRemoved", "FaultsCleared", "FaultHit"] as const satisfies ReadonlyArray<
  FaultEvent["type"]
>

export interface FaultView {
  readonly definition: FaultDefinition
  readonly hits: number
  /** The number of the last matching call it fired on (0 before the first hit). */
  readonly lastCall: number
  /** Simulated time it was added, UNIX ms. */
  readonly addedAt: number
}

type ApiFault = FaultView & { readonly definition: Extract<FaultDefinition, { target: "api" }> }
type WebhookFault = FaultView & { readonly definition: Extract<FaultDefinition, { target: "webhook" }> }

export class FaultsModel {
  /** Every fault in force, in the order added. */
  all: ReadonlyArray<FaultView> = []
  /** The API's faults in force. */
  api: ReadonlyArray<ApiFault> = []
  /** The webhooks' faults in force. */
  webhook: ReadonlyArray<WebhookFault> = []

  get(faultId: string): FaultView | undefined {
    return this.all.find((f) => f.definition.faultId === faultId)
  }

  apply(event: StoredOf<(typeof faultsFoldTypes)[number]>): void {
    switch (event.type) {
      case "FaultAdded": {
        const { at, ...definition } = event.data
        this.set([...this.all, { definition, hits: 0, lastCall: 0, addedAt: at }])
        return
      }
      case "FaultRemoved":
        this.set(this.all.filter((f) => f.definition.faultId !== event.data.faultId))
        return
      case "FaultsCleared": {
        const gone = new Set(event.data.faultIds)
        this.set(this.all.filter((f) => !gone.has(f.definition.faultId)))
        return
      }
      case "FaultHit": {
        const { faultId, call } = event.data
        this.set(this.all.map((f) => (f.definition.faultId === faultId ? { ...f, hits: f.hits + 1, lastCall: call } : f)))
        return
      }
    }
  }

  private set(all: ReadonlyArray<FaultView>): void {
    this.all = all
    this.api = all.filter((f): f is ApiFault => f.definition.target === "api")
    this.webhook = all.filter((f): f is WebhookFault => f.definition.target === "webhook")
  }
}
