// A deep, order-preserving serialization of states that hold Maps, Sets, class instances and bigints: two equal
// snapshots mean nothing observable changed (the vault's state is folded in place, so identity proves nothing).
export const snapshot = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return `${v}n`
    if (v instanceof Map) return { "<map>": [...v.entries()] }
    if (v instanceof Set) return { "<set>": [...v.values()] }
    if (typeof v === "function") return `<fn ${v.name}>`
    return v
  })
