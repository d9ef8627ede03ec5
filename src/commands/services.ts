// Service tags the deterministic core depends on: simulated time and seeded ids. Adapters live in src/adapters.
import { Context } from "effect"
import type { Effect } from "effect"
import type { IdKind } from "../domain/shared/ids.js"
import type { SimInstant } from "../domain/shared/sim-time.js"
import type { EventStore } from "../store/event-store.js"

export class SimClock extends Context.Service<SimClock, { readonly now: Effect.Effect<SimInstant> }>()("custody-sim/commands/SimClock") {}

export class Ids extends Context.Service<
  Ids,
  {
    /** Next 24-hex resource id of this kind (deterministic for the workspace seed). */
    readonly next: (kind: IdKind) => Effect.Effect<string>
    /** Next event id (uuid v4 layout, deterministic for the workspace seed). */
    readonly eventId: Effect.Effect<string>
    /** Deterministic bytes for a purpose (hashes, txids): the same label gives the same bytes for a seed. */
    readonly bytes: (label: string, length: number) => Uint8Array
    /**
     * As `bytes`, but never what a world reverted away was given (other bytes in each epoch, README "Snapshots"):
     * for what its notifications carried out of the simulator (transaction ids, block hashes).
     */
    readonly unrepeated: (label: string, length: number) => Uint8Array
  }
>()("custody-sim/commands/Ids") {}

/** HD derivation of a vault's addresses (each vault has its own key tree, seeded from the workspace seed). */
export class AddressDerivation extends Context.Service<
  AddressDerivation,
  {
    readonly derive: (
      vaultId: string,
      blockchain: string,
      network: string,
      path: { readonly account: number; readonly change: 0 | 1; readonly index: number },
    ) => { readonly address: string; readonly derivationPath: string }
  }
>()("custody-sim/commands/AddressDerivation") {}

/** What running a command needs: the store, simulated time, seeded ids, HD derivation. */
export type CommandServices = EventStore | SimClock | Ids | AddressDerivation
