// Wire shapes declared once for every version: each field once, with the version it is renamed, added or
// dropped in. From one declaration come each version's Effect Schema (hence its OpenAPI document) and its
// presenter, which writes a handler's version-independent value (named as in the oldest version) in that
// version's names and order. A version whose names are the value's own writes it as it is.
import { Schema } from "effect"
import { API_VERSIONS, type ApiVersion } from "../../domain/api-key/versions.js"

// biome-ignore lint/suspicious/noExplicitAny: a presenter takes the value its version's schema decoded, whatever type that schema has
export type Present = ((value: any) => unknown) | undefined

export interface Compiled {
  readonly schema: Schema.Top
  /** undefined: the value is written as it is. */
  readonly present: Present
}

export interface Shape {
  readonly _tag: "Shape"
  readonly at: (version: ApiVersion) => Compiled
}

export type Part = Schema.Top | Shape

export interface FieldOptions {
  /** The field's name from a version on; before the first entry it is the declared key. */
  readonly renamed?: { readonly [V in ApiVersion]?: string }
  /** First version that has the field. */
  readonly since?: ApiVersion
  /** First version that no longer has it. */
  readonly until?: ApiVersion
  readonly optional?: boolean
  /** From a version on, an absent value is written as this (a list the version always shows). */
  readonly absentAs?: { readonly [V in ApiVersion]?: unknown }
}

export interface Field {
  readonly _tag: "Field"
  readonly part: Part
  readonly options: FieldOptions
}

const isShape = (p: Part | Field): p is Shape => (p as { _tag?: unknown })._tag === "Shape"
const isField = (p: Part | Field): p is Field => (p as { _tag?: unknown })._tag === "Field"

export const field = (part: Part, options: FieldOptions): Field => ({ _tag: "Field", part, options })
export const optional = (part: Part, options: Omit<FieldOptions, "optional"> = {}): Field => field(part, { ...options, optional: true })

const order = (v: ApiVersion) => API_VERSIONS.indexOf(v)

const perVersion = (build: (version: ApiVersion) => Compiled): Shape => {
  const compiled = new Map<ApiVersion, Compiled>()
  return {
    _tag: "Shape",
    at: (version) => {
      let c = compiled.get(version)
      if (c === undefined) compiled.set(version, (c = build(version)))
      return c
    },
  }
}

export const compile = (part: Part, version: ApiVersion): Compiled =>
  isShape(part) ? part.at(version) : { schema: part, present: undefined }

const nameAt = (key: string, renamed: FieldOptions["renamed"], version: ApiVersion): string => {
  let name = key
  if (renamed !== undefined) for (const v of API_VERSIONS) if (order(v) <= order(version) && renamed[v] !== undefined) name = renamed[v]!
  return name
}

const latest = <A>(entries: { readonly [V in ApiVersion]?: A } | undefined, version: ApiVersion): A | undefined => {
  let found: A | undefined
  if (entries !== undefined) for (const v of API_VERSIONS) if (order(v) <= order(version) && entries[v] !== undefined) found = entries[v]
  return found
}

const existsAt = (o: FieldOptions, version: ApiVersion) =>
  (o.since === undefined || order(version) >= order(o.since)) && (o.until === undefined || order(version) < order(o.until))

/** An object: fields in wire order; each is a schema, a shape, or `field(…)` / `optional(…)` with its versions. */
export const struct = (fields: Readonly<Record<string, Part | Field>>): Shape =>
  perVersion((version) => {
    const schemaFields: Record<string, Schema.Top> = {}
    const plan: Array<readonly [string, string, Present, unknown]> = []
    let same = true
    for (const [key, declared] of Object.entries(fields)) {
      const f: Field = isField(declared) ? declared : { _tag: "Field", part: declared, options: {} }
      if (!existsAt(f.options, version)) {
        same = false
        continue
      }
      const name = nameAt(key, f.options.renamed, version)
      const child = compile(f.part, version)
      const absent = latest(f.options.absentAs, version)
      if (name !== key || child.present !== undefined || absent !== undefined) same = false
      schemaFields[name] =
        f.options.optional && absent === undefined ? Schema.optionalKey(child.schema as Schema.Top & Schema.Constraint) : child.schema
      plan.push([key, name, child.present, absent])
    }
    const present: Present = same
      ? undefined
      : (value: Record<string, unknown>) => {
          const out: Record<string, unknown> = {}
          for (const [key, name, p, absent] of plan) {
            const v = value[key] ?? absent
            if (v !== undefined) out[name] = p === undefined ? v : p(v)
          }
          return out
        }
    return { schema: Schema.Struct(schemaFields as Schema.Struct.Fields), present }
  })

export const array = (item: Part): Shape =>
  perVersion((version) => {
    const c = compile(item, version)
    const p = c.present
    return {
      schema: Schema.Array(c.schema as Schema.Top & Schema.Constraint),
      present: p === undefined ? undefined : (xs: ReadonlyArray<unknown>) => xs.map(p),
    }
  })

/** A value whose type changes with the version: the entry of the latest version at or before the request's. */
export const byVersion = (
  entries: { readonly [V in ApiVersion]?: Part },
  // biome-ignore lint/suspicious/noExplicitAny: as Present
  convert?: { readonly [V in ApiVersion]?: (value: any) => unknown },
): Shape =>
  perVersion((version) => {
    let part: Part | undefined
    // biome-ignore lint/suspicious/noExplicitAny: as Present
    let write: ((value: any) => unknown) | undefined
    for (const v of API_VERSIONS)
      if (order(v) <= order(version)) {
        if (entries[v] !== undefined) part = entries[v]
        if (convert?.[v] !== undefined) write = convert[v]
      }
    if (part === undefined) throw new Error(`no shape at ${version}`)
    const c = compile(part, version)
    const inner = c.present
    return { schema: c.schema, present: write === undefined ? inner : inner === undefined ? write : (x: unknown) => inner(write(x)) }
  })

/** A value written through `write` in every version (a count the wire shows as a string). */
// biome-ignore lint/suspicious/noExplicitAny: as Present
export const converted = (schema: Schema.Top, write: (value: any) => unknown): Shape => perVersion(() => ({ schema, present: write }))

/**
 * A shape with the name the OpenAPI documents give it (components.schemas), in every version: a shape several
 * operations answer, named where it is declared rather than after one of them.
 */
export const named = (name: string, shape: Shape, description?: string): Shape & { readonly name: string } => ({
  ...perVersion((version) => {
    const c = shape.at(version)
    return { schema: c.schema.annotate({ identifier: name, ...(description !== undefined ? { description } : {}) }), present: c.present }
  }),
  name,
})
