// A document with its components.schemas references written out in place, for tests that read a schema's fields.
const COMPONENT = "#/components/schemas/"

export const inlined = (document: any): any => {
  const schemas = document.components?.schemas ?? {}
  const walk = (value: unknown, seen: ReadonlyArray<string>): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, seen))
    if (value === null || typeof value !== "object") return value
    const { $ref, ...rest } = value as Record<string, unknown>
    if (typeof $ref === "string" && $ref.startsWith(COMPONENT)) {
      const name = $ref.slice(COMPONENT.length)
      if (seen.includes(name)) throw new Error(`a schema refers to itself: ${name}`)
      return { ...(walk(schemas[name], [...seen, name]) as object), ...(walk(rest, seen) as object) }
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, seen)]))
  }
  return { ...document, paths: walk(document.paths, []) }
}
