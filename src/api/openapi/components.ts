// The named schemas of one document (components.schemas): an Effect Schema becomes its JSON Schema, each part that
// carries an `identifier` (wire shapes name theirs where they are declared) is hoisted under that name, and a part
// named by the document (an operation's request body, its answer) is hoisted under the name given, or the name the
// same shape already has. One name stands for one shape: a name given to two different shapes stops the build.
import { Schema } from "effect"
import type { JsonObject } from "../body.js"

const LOCAL = "#/$defs/"
const COMPONENT = "#/components/schemas/"

/** `#/$defs/X` (Effect's definitions) as `#/components/schemas/X`, everywhere in a JSON Schema. */
const relocate = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(relocate)
  if (value === null || typeof value !== "object") return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith(LOCAL) ? COMPONENT + v.slice(LOCAL.length) : relocate(v)
  return out
}

export const ref = (name: string): JsonObject => ({ $ref: COMPONENT + name })

export interface Components {
  /** The JSON Schema of `schema`, its identified parts as references (kept in the components). */
  readonly inline: (schema: Schema.Top) => JsonObject
  /**
   * `json` kept as the component `name`; its reference. A shape the document already names (another operation's
   * identical body or answer) keeps that one name.
   */
  readonly name: (name: string, json: JsonObject) => JsonObject
  readonly schemas: () => Record<string, JsonObject>
}

export const components = (): Components => {
  const schemas = new Map<string, string>()
  const keep = (name: string, json: JsonObject): JsonObject => {
    const text = JSON.stringify(json)
    const known = schemas.get(name)
    if (known !== undefined && known !== text) throw new Error(`the schema name ${name} is given to two different shapes`)
    schemas.set(name, text)
    return ref(name)
  }
  const inline = (schema: Schema.Top): JsonObject => {
    const doc = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
    for (const [name, json] of Object.entries(doc.definitions)) keep(name, relocate(json) as JsonObject)
    return relocate(doc.schema) as JsonObject
  }
  const byText = new Map<string, string>()
  const name = (wanted: string, json: JsonObject): JsonObject => {
    const text = JSON.stringify(json)
    const known = byText.get(text)
    if (known !== undefined) return ref(known)
    byText.set(text, wanted)
    return keep(wanted, json)
  }
  return {
    inline,
    name,
    schemas: () => Object.fromEntries([...schemas].sort(([a], [b]) => a.localeCompare(b)).map(([n, t]) => [n, JSON.parse(t)])),
  }
}

/** `createVaultAccount` → `CreateVaultAccount`: an operation's name for its schemas (the service's: `…RB`, `…R`, `…RI`). */
export const schemaStem = (operationId: string): string => operationId.charAt(0).toUpperCase() + operationId.slice(1)
