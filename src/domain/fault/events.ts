// Fault events (stream `faults-registry`): faults added, removed, cleared, and each hit, so that an exported log
// replays the same failures at the same positions.
import type { SimInstant } from "../shared/sim-time.js"

/** The statuses a fault may answer an API call with, before the work. */
export type FaultStatus = 429 | 500 | 502 | 503 | 504

export type ApiFaultEffect =
  | { readonly kind: "status"; readonly status: FaultStatus }
  /** The real answer, after a wall-clock delay. */
  | { readonly kind: "delay"; readonly ms: number }
  /** The connection is dropped before the work. */
  | { readonly kind: "reset" }
  /** No answer until the client gives up (bounded by the server's request timeout). */
  | { readonly kind: "timeout" }
  /** The work is done and committed, then the connection is dropped without an answer. */
  | { readonly kind: "lost-answer" }

export type WebhookFaultEffect =
  /** The delivery is sent twice, with the same idempotency key. */
  | { readonly kind: "duplicate" }
  /** The delivery is held for simulated seconds. */
  | { readonly kind: "delay"; readonly seconds: number }
  /** The delivery is held and sent after the subscription's next notification. */
  | { readonly kind: "reorder" }
  /** The attempt counts as failed with this status, whatever the receiver answered. */
  | { readonly kind: "fail"; readonly status: number }

/** Every part given must hold; `path` is an operation's path template (`/vaults/{vaultId}`) or a concrete path. */
export interface ApiFaultMatch {
  readonly method?: string
  readonly path?: string
  readonly apiKey?: string
  readonly apiVersion?: string
}

export interface WebhookFaultMatch {
  readonly webhookId: string
  readonly event?: string
}

/** When a matching call is hit; all null: every matching call. */
export interface FaultSchedule {
  /** At most this many hits. */
  readonly times: number | null
  /** Only the k-th, 2k-th, … matching call. */
  readonly every: number | null
  /** Each matching call with this probability, drawn from `seed` and the call's number. */
  readonly probability: number | null
  readonly seed: string | null
}

export type FaultDefinition =
  | (FaultSchedule & { readonly faultId: string; readonly target: "api"; readonly match: ApiFaultMatch; readonly effect: ApiFaultEffect })
  | (FaultSchedule & {
      readonly faultId: string
      readonly target: "webhook"
      readonly match: WebhookFaultMatch
      readonly effect: WebhookFaultEffect
    })

export type FaultEvent =
  | { readonly type: "FaultAdded"; readonly data: FaultDefinition & { readonly at: SimInstant } }
  | { readonly type: "FaultRemoved"; readonly data: { readonly faultId: string; readonly at: SimInstant } }
  | { readonly type: "FaultsCleared"; readonly data: { readonly faultIds: ReadonlyArray<string>; readonly at: SimInstant } }
  | {
      readonly type: "FaultHit"
      readonly data: {
        readonly faultId: string
        /** The matching call's number (1-based) the fault fired on. */
        readonly call: number
        /** The API request hit, or null. */
        readonly requestId: string | null
        /** The webhook delivery hit, or null. */
        readonly deliveryId: string | null
        readonly at: SimInstant
      }
    }
