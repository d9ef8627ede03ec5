// Money: bigint base units inside, decimal strings on the wire. The one codec for both directions.
export type BaseUnits = bigint & { readonly BaseUnits: unique symbol }

export type AmountError =
  | { readonly _tag: "MalformedAmount"; readonly input: string }
  | { readonly _tag: "AmountTooPrecise"; readonly input: string; readonly decimals: number }
  | { readonly _tag: "AmountNotPositive"; readonly input: string }
  | { readonly _tag: "AmountTooLarge"; readonly input: string }

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/
/** 2^256 - 1 base units: nothing on any chain holds more. */
export const MAX_BASE_UNITS = (1n << 256n) - 1n

/** 10^decimals, computed once per number of decimals (a bigint power per amount was a tenth of a 200-amount answer). */
const scales: Array<bigint> = []
const scaleOf = (decimals: number): bigint => scales[decimals] ?? (scales[decimals] = 10n ** BigInt(decimals))

export const baseUnits = (n: bigint): BaseUnits => n as BaseUnits

/** Parses a non-negative decimal string with at most `decimals` fraction digits. */
export const parseAmount = (input: string, decimals: number): { ok: true; value: BaseUnits } | { ok: false; error: AmountError } => {
  if (typeof input !== "string" || input.length > 100) return { ok: false, error: { _tag: "MalformedAmount", input: String(input).slice(0, 100) } }
  const m = DECIMAL.exec(input)
  if (m === null) return { ok: false, error: { _tag: "MalformedAmount", input } }
  const whole = m[1] ?? "0"
  const frac = (m[2] ?? "").replace(/0+$/, "")
  if (frac.length > decimals) return { ok: false, error: { _tag: "AmountTooPrecise", input, decimals } }
  const value = BigInt(whole) * scaleOf(decimals) + (frac.length > 0 ? BigInt(frac.padEnd(decimals, "0")) : 0n)
  if (value > MAX_BASE_UNITS) return { ok: false, error: { _tag: "AmountTooLarge", input } }
  return { ok: true, value: baseUnits(value) }
}

/** Parses a strictly positive amount. */
export const parsePositiveAmount = (input: string, decimals: number) => {
  const r = parseAmount(input, decimals)
  if (r.ok && r.value === 0n) return { ok: false as const, error: { _tag: "AmountNotPositive", input } as AmountError }
  return r
}

/** Formats base units as the shortest exact decimal string ("1.5", "0", "0.00000001"). */
export const formatAmount = (value: bigint, decimals: number): string => {
  const negative = value < 0n
  const abs = negative ? -value : value
  if (decimals === 0) return (negative ? "-" : "") + abs.toString()
  const scale = scaleOf(decimals)
  const whole = abs / scale
  const frac = (abs % scale).toString().padStart(decimals, "0").replace(/0+$/, "")
  return (negative ? "-" : "") + whole.toString() + (frac.length > 0 ? "." + frac : "")
}
