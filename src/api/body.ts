// Body and query checks after authorization: structure (422), attributes (409), values (400).
import { Schema } from "effect"
import { errors, type ApiError, type ErrorDetail } from "./errors.js"

/**
 * Returns a message when the value is unacceptable. `schema` declares, as an Effect Schema, what a valid value is:
 * the OpenAPI documents give it as the attribute's type. A check accepts nothing its schema refuses (tested); it may
 * refuse more (a URL that does not parse), with the message the spec's `details` carry.
 */
export interface FieldCheck<A = unknown> {
  (value: unknown): string | undefined
  readonly schema?: Schema.Top
  /** The type of a value it accepts: its schema's decoded type (a type only, never set; `Decoded` reads it). */
  readonly [decodedType]?: A
}

declare const decodedType: unique symbol

/** A check with its declared schema; what it accepts is typed as the schema's decoded type. */
export const typed = <S extends Schema.Top>(schema: S, check: (value: unknown) => string | undefined): FieldCheck<S["Type"]> =>
  Object.assign(check, { schema })

/** The type of the values a check accepts. */
export type DecodedField<C> = C extends FieldCheck<infer A> ? A : unknown

export interface BodySpec {
  readonly required: Readonly<Record<string, FieldCheck>>
  readonly optional?: Readonly<Record<string, FieldCheck>>
}

export interface QuerySpec {
  readonly required?: Readonly<Record<string, FieldCheck>>
  readonly optional?: Readonly<Record<string, FieldCheck>>
}

export type JsonObject = { readonly [k: string]: unknown }

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

export interface ParsedBody {
  readonly context: string | undefined
  readonly item: JsonObject
}

/**
 * How deep a body may nest arrays and objects: far deeper than any body the API takes. What walks a body (the
 * asset-id mapping, the checks) recurses, and a body nested thousands deep would exhaust the stack (a 500).
 */
export const MAX_BODY_DEPTH = 64

/** Whether JSON text opens more than `levels` arrays or objects inside each other (brackets in strings skipped). */
const nestsDeeper = (text: string, levels: number): boolean => {
  // A body this short cannot open more brackets than it has characters.
  if (text.length <= levels) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92)
        i++ // a backslash: the next character is escaped
      else if (ch === 34) inString = false
    } else if (ch === 34) inString = true
    else if (ch === 91 || ch === 123) {
      if (++depth > levels) return true
    } else if (ch === 93 || ch === 125) depth--
  }
  return false
}

/** JSON text as a value: a 400 for text that is not JSON or nests deeper than MAX_BODY_DEPTH. */
export const parseJsonBody = (raw: string, malformed: () => ApiError = errors.malformedJson): { readonly value: unknown } | ApiError => {
  if (nestsDeeper(raw, MAX_BODY_DEPTH)) return errors.bodyTooDeep(MAX_BODY_DEPTH)
  try {
    return { value: JSON.parse(raw) as unknown }
  } catch {
    return malformed()
  }
}

/** `{ context?: string, data: { item: {...} } }`, nothing else: unparseable JSON is 400, any other shape 422. */
export const parseWrappedBody = (raw: string): ParsedBody | ApiError => {
  if (nestsDeeper(raw, MAX_BODY_DEPTH)) return errors.bodyTooDeep(MAX_BODY_DEPTH)
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return errors.malformedJson()
  }
  if (!isObject(parsed)) return errors.invalidBodyStructure()
  for (const k of Object.keys(parsed)) if (k !== "context" && k !== "data") return errors.invalidBodyStructure()
  const { context, data } = parsed
  if (context !== undefined && typeof context !== "string") return errors.invalidBodyStructure('"context" must be a string.')
  if (!isObject(data) || Object.keys(data).length !== 1 || !isObject(data.item)) return errors.invalidBodyStructure()
  return { context, item: data.item }
}

export type AttributeSpec = {
  readonly required?: Readonly<Record<string, FieldCheck>>
  readonly optional?: Readonly<Record<string, FieldCheck>>
}

/**
 * The attributes a spec accepts, typed: a required one is its check's type, an optional one that or undefined. A
 * spec typed only as BodySpec (its keys unknown) gives an index of unknown values.
 */
export type Decoded<S extends AttributeSpec> = {
  readonly [K in keyof NonNullable<S["required"]>]: DecodedField<NonNullable<S["required"]>[K]>
} & { readonly [K in keyof NonNullable<S["optional"]>]?: DecodedField<NonNullable<S["optional"]>[K]> }

/** A spec's attributes as one Effect Schema struct (the optional ones as optional keys), from its checks' schemas. */
export const attributesSchema = (spec: AttributeSpec) =>
  Schema.Struct({
    ...Object.fromEntries(Object.entries(spec.required ?? {}).map(([k, check]) => [k, check.schema ?? Schema.Unknown])),
    ...Object.fromEntries(Object.entries(spec.optional ?? {}).map(([k, check]) => [k, Schema.optionalKey(check.schema ?? Schema.Unknown)])),
  })

/**
 * Missing required (409), then unknown (409), then values (400); each error names every offending attribute.
 * The spec's key lists are read once here: the operations run the returned check on every request.
 */
export const attributeChecker = (
  spec: AttributeSpec,
  extra: (attributes: ReadonlyArray<string>) => ApiError,
): ((values: JsonObject) => ApiError | undefined) => {
  const required = spec.required ?? {}
  const optional = spec.optional ?? {}
  const requiredKeys = Object.keys(required)
  const fields = [...Object.entries(required), ...Object.entries(optional)]
  return (values) => {
    let missing: Array<string> | undefined
    for (const k of requiredKeys) if (!Object.hasOwn(values, k) || values[k] === undefined) (missing ??= []).push(k)
    if (missing !== undefined) return errors.missingRequiredAttributes(missing)
    const keys = Object.keys(values)
    if (keys.length === 0) return undefined
    const unknown = keys.filter((k) => !Object.hasOwn(required, k) && !Object.hasOwn(optional, k))
    if (unknown.length > 0) return extra(unknown)
    const bad: Array<ErrorDetail> = []
    for (const [k, check] of fields) {
      if (!Object.hasOwn(values, k)) continue
      const message = check(values[k])
      if (message !== undefined) bad.push({ attribute: k, message })
    }
    return bad.length > 0 ? errors.invalidData(bad) : undefined
  }
}

export const checkAttributes = (
  values: JsonObject,
  spec: AttributeSpec,
  extra: (attributes: ReadonlyArray<string>) => ApiError,
): ApiError | undefined => attributeChecker(spec, extra)(values)

/** The same pattern in Unicode mode, which JSON Schema's `pattern` requires (our patterns are ASCII: same matches). */
const unicode = (pattern: RegExp): RegExp => {
  if (pattern.flags.includes("u")) return pattern
  try {
    return new RegExp(pattern.source, pattern.flags + "u")
  } catch {
    return pattern
  }
}

const stringSchema = (options: { min?: number; max?: number; pattern?: RegExp }) => {
  const min = options.min ?? 0
  const max = options.max ?? 1000
  const pattern = options.pattern === undefined ? undefined : unicode(options.pattern)
  return Schema.String.check(
    Schema.isMaxLength(max),
    ...(min > 0 ? [Schema.isMinLength(min)] : []),
    ...(pattern !== undefined ? [Schema.isPattern(pattern)] : []),
  )
}

const COLOR = /^#[0-9A-Fa-f]{6}$/

export const checks = {
  string: (options: { min?: number; max?: number; pattern?: RegExp; patternMessage?: string } = {}): FieldCheck<string> =>
    typed(stringSchema(options), (v) => {
      if (typeof v !== "string") return "must be a string"
      if (v.length < (options.min ?? 0)) return options.min === 1 ? "must not be empty" : `must have at least ${options.min} characters`
      if (v.length > (options.max ?? 1000)) return `must have at most ${options.max ?? 1000} characters`
      if (options.pattern !== undefined && !options.pattern.test(v)) return options.patternMessage ?? `must match ${options.pattern}`
      return undefined
    }),
  boolean: (): FieldCheck<boolean> => typed(Schema.Boolean, (v) => (typeof v === "boolean" ? undefined : "must be a boolean")),
  oneOf: <const V extends string>(values: ReadonlyArray<V>): FieldCheck<V> =>
    typed(Schema.Literals(values), (v) =>
      typeof v === "string" && (values as ReadonlyArray<string>).includes(v) ? undefined : `must be one of ${values.join(", ")}`,
    ),
  color: (): FieldCheck<string> =>
    typed(Schema.String.check(Schema.isPattern(unicode(COLOR))), (v) =>
      typeof v === "string" && COLOR.test(v) ? undefined : "must be a color code #RRGGBB",
    ),
  any: (): FieldCheck<unknown> => typed(Schema.Unknown, () => undefined),
  /** A query flag: the text `true` or `false`. */
  booleanText: (): FieldCheck<"true" | "false"> =>
    typed(Schema.Literals(["true", "false"]), (v) => (v === "true" || v === "false" ? undefined : "must be true or false")),
} as const

/** Declared types of structured request values, for `typed` checks. */
export const shapes = {
  /** An object of exactly these keys, each a string. */
  strings: <const K extends string>(keys: ReadonlyArray<K>) =>
    Schema.Struct(Object.fromEntries(keys.map((k) => [k, Schema.String])) as { readonly [k in K]: typeof Schema.String }),
  /** An array of `min` to `max` items. */
  list: <S extends Schema.Top & Schema.Constraint>(item: S, min: number, max: number) =>
    Schema.Array(item).check(Schema.isMinLength(min), Schema.isMaxLength(max)),
}
