// A deep copy of an object graph (read models): shared references stay shared, cycles stay cycles, class
// instances keep their prototype. Functions and primitives are kept as they are.
export const cloneGraph = <T>(root: T): T => {
  const seen = new Map<object, unknown>()
  const copy = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value
    const done = seen.get(value)
    if (done !== undefined) return done
    if (Array.isArray(value)) {
      const out = new Array<unknown>(value.length)
      seen.set(value, out)
      for (let i = 0; i < value.length; i++) out[i] = copy(value[i])
      return out
    }
    if (value instanceof Map) {
      const out = new Map<unknown, unknown>()
      seen.set(value, out)
      for (const [k, v] of value) out.set(copy(k), copy(v))
      return out
    }
    if (value instanceof Set) {
      const out = new Set<unknown>()
      seen.set(value, out)
      for (const v of value) out.add(copy(v))
      return out
    }
    if (ArrayBuffer.isView(value)) {
      const out = (value as unknown as { slice: () => unknown }).slice()
      seen.set(value, out)
      return out
    }
    // Frozen plain data (event payloads) never changes: sharing it is a copy.
    if (Object.isFrozen(value)) return value
    const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>
    seen.set(value, out)
    const source = value as Record<string, unknown>
    for (const key in source) if (Object.hasOwn(source, key)) out[key] = copy(source[key])
    return out
  }
  return copy(root) as T
}
