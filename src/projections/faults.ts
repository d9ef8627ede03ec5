// Faults read model: the faults in force, each with its hits, in the order they were added. The lists are replaced
// on each change, never changed in place: the request pipeline reads `api` on every call, one length check when empty,
// and then only the faults `apiFor` its operation (indexed by method and path), so faults on other operations cost
// a call nothing.
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

export type ApiFault = FaultView & { readonly definition: Extract<FaultDefinition, { target: "api" }> }
type WebhookFault = FaultView & { readonly definition: Extract<FaultDefinition, { target: "webhook" }> }

export class FaultsModel {
  /** Every fault in force, in the order added. */
  all: ReadonlyArray<FaultView> = []
  /** The API's faults in force. */
  api: ReadonlyArray<ApiFault> = []
  /** The webhooks' faults in force. */
  webhook: ReadonlyArray<WebhookFault> = []

  /** API faults naming both a method and a path, by `METHOD path` (the path a template or a concrete path). */
  private apiByPath: ReadonlyMap<string, ReadonlyArray<ApiFault>> = new Map()
  /** API faults without a method or a path: every call checks them. */
  private apiAnywhere: ReadonlyArray<ApiFault> = []

  /**
   * The API faults a call may match, in the order added: those on its operation (`METHOD /template/{param}`), those
   * on its concrete path (`METHOD /concrete/path`), and those naming no method or no path.
   */
  apiFor(operationKey: string, concreteKey: string): ReadonlyArray<ApiFault> {
    const onOperation = this.apiByPath.get(operationKey)
    const onPath = concreteKey === operationKey ? undefined : this.apiByPath.get(concreteKey)
    const parts = [onOperation, onPath, this.apiAnywhere].filter((xs): xs is ReadonlyArray<ApiFault> => xs !== undefined && xs.length > 0)
    if (parts.length <= 1) return parts[0] ?? []
    return parts.flat().sort((a, b) => this.api.indexOf(a) - this.api.indexOf(b))
  }

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
    const byPath = new Map<string, Array<ApiFault>>()
    const anywhere: Array<ApiFault> = []
    for (const f of this.api) {
      const { method, path } = f.definition.match
      if (method === undefined || path === undefined) anywhere.push(f)
      else {
        const key = apiFaultKey(method, path)
        byPath.set(key, [...(byPath.get(key) ?? []), f])
      }
    }
    this.apiByPath = byPath
    this.apiAnywhere = anywhere
  }
}

/** The key `apiFor` looks a call's faults up by: its method and its path (template or concrete). */
export const apiFaultKey = (method: string, path: string): string => `${method} ${path}`
