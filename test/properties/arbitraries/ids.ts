// Identifiers as picks: small pools, so that generated commands meet the same accounts, deposits and requests
// again (repeats are how duplicates and illegal transitions are produced on purpose).
import fc from "fast-check"
import type { VaultAccountId, VaultId } from "../../../src/domain/shared/ids.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"

/** The pure properties' frozen instant (commands carry their time; the deciders read no clock). */
export const NOW = simInstant(Date.UTC(2026, 0, 1))

export const VAULT_ID = "feedfacefeedfacefeedface" as VaultId

export const ACCOUNT_IDS = [
  "acc000000000000000000000",
  "acc111111111111111111111",
  "acc222222222222222222222",
] as ReadonlyArray<string> as ReadonlyArray<VaultAccountId>

/** An account of the pool (only some of them will have been created). */
export const accountPick = fc.nat({ max: ACCOUNT_IDS.length - 1 })

/** An index into whatever exists when the command runs (addresses, requests, outputs), taken modulo its length. */
export const pick = fc.nat({ max: 31 })

/** A deposit transaction of a small pool: the same one credited twice must count once. */
export const depositTx = fc.nat({ max: 40 }).map((i) => `0xdep${i}`)

export const API_KEYS = ["key-a", "key-b"] as const
export const apiKeyPick = fc.constantFrom(...API_KEYS)
