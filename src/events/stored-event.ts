// The log's vocabulary: every event the simulator writes, as one union, and the one place a stored event gets it.
// A stored event's type names its data's shape: the simulator writes only events typed by their aggregate's
// union, and an import checks each event against its type's schema before anything is appended
// (event-log/check.ts). So the data of an event whose type is known is trusted here, once, by name; what a fold
// cannot apply anyway stops the read models with the event's position (projections/runner.ts).
import type { ChainEvent } from "../chain-sim/events.js"
import type { ApiKeyEvent } from "../domain/api-key/events.js"
import type { FaultEvent } from "../domain/fault/events.js"
import type { LedgerEvent } from "../domain/ledger/events.js"
import type { SettingsEvent } from "../domain/settings/index.js"
import type { TxRequestEvent } from "../domain/transaction-request/events.js"
import type { VaultAccountEvent } from "../domain/vault-account/events.js"
import type { VaultEvent } from "../domain/vault/events.js"
import type { WebhookDeliveryEvent, WebhookEvent } from "../domain/webhook/events.js"
import type { RecordedEvent } from "../store/event-store.js"

/** Every event the simulator writes. */
export type DomainEvent =
  | VaultEvent
  | ApiKeyEvent
  | SettingsEvent
  | FaultEvent
  | WebhookEvent
  | WebhookDeliveryEvent
  | VaultAccountEvent
  | LedgerEvent
  | TxRequestEvent
  | ChainEvent

export type EventType = DomainEvent["type"]

/** The envelope `V` (a recorded event, or one just appended) with the member `E`'s type and data. */
export type Typed<V, E extends DomainEvent> = E extends DomainEvent
  ? Omit<V, "type" | "data"> & { readonly type: E["type"]; readonly data: E["data"] }
  : never

/** A recorded event of one of the union's members: the store's envelope with that member's type and data. */
export type StoredEvent<E extends DomainEvent = DomainEvent> = Typed<RecordedEvent, E>

/** The stored events of the given types. */
export type StoredOf<T extends EventType> = StoredEvent<Extract<DomainEvent, { readonly type: T }>>

/**
 * The event with its data typed by its type, when its type is one of `types`; undefined otherwise (another
 * reader's event, or a type this version does not know).
 */
export const storedAs = <V extends { readonly type: string }, T extends EventType>(
  event: V,
  types: ReadonlySet<T>,
): Typed<V, Extract<DomainEvent, { readonly type: T }>> | undefined =>
  (types as ReadonlySet<string>).has(event.type) ? (event as unknown as Typed<V, Extract<DomainEvent, { readonly type: T }>>) : undefined

/**
 * The events of a stream an aggregate owns, as its decider's events: a stream holds only what its decider decided
 * (a stream name is an aggregate's; an import checks each event's type and data), so nothing is looked up.
 */
export const storedOfStream = <E extends { readonly type: string; readonly data: unknown }>(
  events: ReadonlyArray<RecordedEvent>,
): ReadonlyArray<E> => events as unknown as ReadonlyArray<E>
