// Canonical JSON (sorted keys, bigints as decimal strings, no undefined) and the SHA-256 digest over it.
import { createHash } from "node:crypto"

const canonicalValue = (v: unknown): unknown => {
  if (typeof v === "bigint") return v.toString()
  if (v === null || typeof v !== "object") return v
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : canonicalValue(x)))
  if (v instanceof Map) return canonicalValue(Object.fromEntries(v))
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k]
    if (x !== undefined) out[k] = canonicalValue(x)
  }
  return out
}

/** One serialisation per value: object keys sorted by code unit, bigints as strings, undefined members dropped. */
export const canonicalJson = (value: unknown): string => JSON.stringify(canonicalValue(value))

export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")
