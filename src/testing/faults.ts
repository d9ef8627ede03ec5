// The control plane's faults (/_sim/faults) for in-process tests: `sim.faults.add(…)`, `list()`, `remove(id)`, `clear()`.

type Schedule = { readonly times?: number; readonly every?: number; readonly probability?: number; readonly seed?: string }

/** A fault as `POST /_sim/faults` takes it (docs/faults.md). */
export type FaultInput = Schedule &
  (
    | {
        readonly target?: "api"
        readonly match: { readonly method?: string; readonly path?: string; readonly apiKey?: string; readonly apiVersion?: string }
        readonly effect:
          | { readonly kind: "status"; readonly status: 429 | 500 | 502 | 503 | 504 }
          | { readonly kind: "delay"; readonly ms: number }
          | { readonly kind: "reset" | "timeout" | "lost-answer" }
      }
    | {
        readonly target: "webhook"
        readonly match: { readonly webhookId: string; readonly event?: string }
        readonly effect:
          | { readonly kind: "duplicate" | "reorder" }
          | { readonly kind: "delay"; readonly seconds: number }
          | { readonly kind: "fail"; readonly status: number }
      }
  )

/** A fault in force, as `GET /_sim/faults` lists it. */
export type FaultInfo = Omit<FaultInput, keyof Schedule> & {
  readonly id: string
  readonly target: "api" | "webhook"
  readonly times: number | null
  readonly every: number | null
  readonly probability: number | null
  readonly seed: string | null
  readonly hits: number
  readonly addedAt: number
}

export interface FaultControls {
  /** Adds a fault; throws with the control plane's error when it refuses it. */
  readonly add: (fault: FaultInput) => Promise<FaultInfo>
  readonly list: () => Promise<ReadonlyArray<FaultInfo>>
  readonly remove: (id: string) => Promise<void>
  readonly clear: () => Promise<void>
}

interface Answer {
  readonly status: number
  readonly body: unknown
}
type Admin = (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => Promise<Answer>

const ok = <T>(r: Answer, status: number): T => {
  if (r.status !== status) throw new Error(`/_sim/faults answered ${r.status}: ${JSON.stringify(r.body)}`)
  return r.body as T
}

export const faultControls = (admin: Admin): FaultControls => ({
  add: async (fault) => ok<FaultInfo>(await admin("POST", "/_sim/faults", fault), 201),
  list: async () => ok<{ faults: ReadonlyArray<FaultInfo> }>(await admin("GET", "/_sim/faults"), 200).faults,
  remove: async (id) => void ok(await admin("DELETE", `/_sim/faults/${encodeURIComponent(id)}`), 200),
  clear: async () => void ok(await admin("DELETE", "/_sim/faults"), 200),
})
