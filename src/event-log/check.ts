// What an imported event must be beyond its envelope: its type's data (the schema derived from its declaration, and
// what the types cannot say), and an event the read models can apply.
import { Result, Schema } from "effect"
import { findAsset } from "../domain/chains/index.js"
import { ReadModels } from "../projections/read-models.js"
import type { RecordedEvent } from "../store/event-store.js"
import { eventDataSchemas } from "./event-schemas.js"
import type { LoggedEvent } from "./format.js"

/** Base units are integer strings everywhere in the log (JSON has no bigint). */
const BaseUnits = Schema.String.check(Schema.isPattern(/^(0|[1-9][0-9]*)$/, { message: "must be base units as an integer string" }))
const BASE_UNIT_KEYS = new Set(["amount", "fee", "maxFee", "feeLimit"])
const NULLABLE_BASE_UNITS = new Set(["feeLimit"])
/** A notification's payload is what a webhook says: amounts there are decimal strings, as in the API. */
const DISPLAYED = new Set(["payload"])

const Base64 = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9+/]{22,}={0,2}$/, { message: "must be Base64 of at least 16 bytes" }))
const NonEmpty = Schema.String.check(Schema.isMinLength(1))

/** Beyond the types: what a fold would take on trust (an API key's secret signs every request). */
const refinements: Readonly<Record<string, Schema.Decoder<unknown>>> = {
  ApiKeyCreated: Schema.Struct({
    key: NonEmpty,
    name: Schema.String,
    secret: Base64,
    passphraseSalt: NonEmpty,
    passphraseHash: NonEmpty,
    scopes: Schema.Array(Schema.Literals(["read", "write", "withdraw"])),
    vaultIds: Schema.NullOr(Schema.Array(Schema.String)),
    networkTypes: Schema.Array(Schema.Literals(["main", "test"])),
    ipAllowlist: Schema.NullOr(Schema.Array(Schema.String)),
    plan: Schema.Struct({ mainnets: Schema.Boolean, endpoints: Schema.Union([Schema.Literal("all"), Schema.Array(Schema.String)]) }),
    apiVersion: Schema.String,
    activeFrom: Schema.NullOr(Schema.Number),
    rateLimit: Schema.Struct({
      perSecond: Schema.Number.check(Schema.isGreaterThan(0)),
      burst: Schema.Number.check(Schema.isGreaterThan(0)),
    }),
    at: Schema.Number.check(Schema.isFinite()),
  }),
  ApiKeyRevoked: Schema.Struct({ key: NonEmpty, at: Schema.Number.check(Schema.isFinite()) }),
}
const decoderOf = (schema: Schema.Decoder<unknown>) => Schema.decodeUnknownResult(schema)
const decoders = new Map(Object.entries(eventDataSchemas).map(([type, schema]) => [type, decoderOf(schema as Schema.Decoder<unknown>)]))
const refined = new Map(Object.entries(refinements).map(([type, schema]) => [type, decoderOf(schema)]))
const decodeBaseUnits = Schema.decodeUnknownResult(BaseUnits)

/** The first amount-like field anywhere in the data that is not an integer string: its path and value. */
const badBaseUnits = (value: unknown, path: string): string | undefined => {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = badBaseUnits(value[i], `${path}[${i}]`)
      if (bad !== undefined) return bad
    }
    return undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const [k, v] of Object.entries(value)) {
    const here = path === "" ? k : `${path}.${k}`
    if (BASE_UNIT_KEYS.has(k) && !(v === null && NULLABLE_BASE_UNITS.has(k)) && Result.isFailure(decodeBaseUnits(v)))
      return `data.${here} ${JSON.stringify(v)} must be base units as an integer string`
    if (DISPLAYED.has(k)) continue
    const bad = badBaseUnits(v, here)
    if (bad !== undefined) return bad
  }
  return undefined
}

const ASSET_KEYS = new Set(["assetId", "feeAssetId"])

/**
 * The first asset id anywhere in the data that names no asset of the catalogue (a fixture's own ids are mapped to the
 * catalogue's at the API: the log holds only the catalogue's): every read and the audit look each one up.
 */
const unknownAsset = (value: unknown, path: string): string | undefined => {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = unknownAsset(value[i], `${path}[${i}]`)
      if (bad !== undefined) return bad
    }
    return undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const [k, v] of Object.entries(value)) {
    const here = path === "" ? k : `${path}.${k}`
    if (ASSET_KEYS.has(k) && typeof v === "string" && findAsset(v) === undefined)
      return `data.${here} ${JSON.stringify(v)} is not an asset of the simulator's catalogue`
    if (k === "assetIds" && Array.isArray(v)) {
      const i = v.findIndex((id) => typeof id === "string" && findAsset(id) === undefined)
      if (i >= 0) return `data.${here}[${i}] ${JSON.stringify(v[i])} is not an asset of the simulator's catalogue`
    }
    if (DISPLAYED.has(k)) continue
    const bad = unknownAsset(v, here)
    if (bad !== undefined) return bad
  }
  return undefined
}

/** Why an event of this type cannot have this data (amounts first: their reason is the clearest), or undefined. */
export const checkData = (type: string, data: unknown): string | undefined => {
  const bad = badBaseUnits(data, "") ?? unknownAsset(data, "")
  if (bad !== undefined) return `${type} ${bad}`
  const decode = decoders.get(type)
  if (decode === undefined) return `${type} is not an event type of the simulator`
  for (const d of [decode, refined.get(type)]) {
    const r = d?.(data, { errors: "all", onExcessProperty: "ignore" })
    if (r !== undefined && Result.isFailure(r)) return `${type} data: ${r.failure.message.replace(/\n\s*/g, " ")}`
  }
  return undefined
}

/**
 * Checks events in log order: each type's data, then a fold of every read model over a scratch copy, so that an
 * event the simulator's models cannot apply is refused here, with its line, before anything is written.
 */
export class EventChecker {
  private readonly models = new ReadModels()
  private position = 0n // the last one given: positions count from 1, as in the stores

  /** Why the event is refused, or undefined. */
  check(e: LoggedEvent): string | undefined {
    const bad = checkData(e.type, e.data)
    if (bad !== undefined) return bad
    const recorded: RecordedEvent = { ...e, position: ++this.position }
    try {
      this.models.apply(recorded)
    } catch (error) {
      return `the ${e.type} event cannot be applied to the read models: ${error instanceof Error ? error.message : String(error)}`
    }
    return undefined
  }
}
