// Money: bigint base units inside, decimal strings on the wire. The one codec for both directions.
export type BaseUnits = bigint & { readonly BaseUnits: unique symbol }

export type AmountError =
  | { readonly _tag: "MalformedAmount"; readonly input: string }
  | { readonly _tag: "AmountTooPrecise"; readonly input: string; readonly decimals: number }
  | { readonly _tag: "AmountNotPositive"; readonly input: string }
  | { readonly _tag: "AmountTooLarge"; readonly input: string }

/** 2^256 - 1 base units: nothing on any chain holds more. */
export const MAX_BASE_UNITS = (1n << 256n) - 1n

export const baseUnits = (n: bigint): BaseUnits => n as BaseUnits

/** Longest digit string that cannot exceed MAX_BASE_UNITS (78 digits can). */
const SAFE_DIGITS = MAX_BASE_UNITS.toString().length - 1

/**
 * Parses a non-negative decimal string with at most `decimals` fraction digits: `^(0|[1-9][0-9]*)(\.[0-9]+)?$`.
 * One scan and one BigInt of the digits (the fraction padded to `decimals`): a regex match, a replace and two
 * BigInts with a multiply per amount were most of the cost of a 150-recipient body's checks.
 */
export const parseAmount = (input: string, decimals: number): { ok: true; value: BaseUnits } | { ok: false; error: AmountError } => {
  if (typeof input !== "string" || input.length > 100)
    return { ok: false, error: { _tag: "MalformedAmount", input: String(input).slice(0, 100) } }
  const length = input.length
  let dot = -1
  // The digits as a number while that is exact (at most 15 of them): most amounts need no BigInt of a string.
  let small = 0
  for (let i = 0; i < length; i++) {
    const c = input.charCodeAt(i)
    if (c === 46 && dot < 0) dot = i
    else if (c < 48 || c > 57) return malformed(input)
    else small = small * 10 + (c - 48)
  }
  const wholeEnd = dot < 0 ? length : dot
  // A whole part, without a leading zero unless it is "0"; a dot only with digits after it.
  if (wholeEnd === 0 || (wholeEnd > 1 && input.charCodeAt(0) === 48) || dot === length - 1) return malformed(input)
  let fracEnd = length
  if (dot >= 0) while (fracEnd > dot + 1 && input.charCodeAt(fracEnd - 1) === 48) fracEnd--
  const fracLength = dot < 0 ? 0 : fracEnd - dot - 1
  if (fracLength > decimals) return { ok: false, error: { _tag: "AmountTooPrecise", input, decimals } }
  // `small` holds the digits up to the end, trailing zeros of the fraction included: scaled by a power of ten.
  const written = dot < 0 ? 0 : length - dot - 1
  const digitCount = length - (dot < 0 ? 0 : 1)
  if (digitCount <= 15 && decimals <= 15) {
    const value = written <= decimals ? small * POWERS[decimals - written]! : small / POWERS[written - decimals]!
    if (value <= Number.MAX_SAFE_INTEGER) return { ok: true, value: baseUnits(BigInt(value)) }
  }
  const digits =
    fracLength === 0
      ? input.slice(0, wholeEnd) + zeros(decimals)
      : input.slice(0, wholeEnd) + input.slice(dot + 1, fracEnd) + zeros(decimals - fracLength)
  const value = BigInt(digits)
  if (digits.length > SAFE_DIGITS && value > MAX_BASE_UNITS) return { ok: false, error: { _tag: "AmountTooLarge", input } }
  return { ok: true, value: baseUnits(value) }
}

/** 10^0 … 10^15, exact as numbers. */
const POWERS = Array.from({ length: 16 }, (_, i) => 10 ** i)

const malformed = (input: string): { ok: false; error: AmountError } => ({ ok: false, error: { _tag: "MalformedAmount", input } })

const zeroRuns: Array<string> = []
const zeros = (n: number): string => zeroRuns[n] ?? (zeroRuns[n] = "0".repeat(n))

/** Parses a strictly positive amount. */
export const parsePositiveAmount = (input: string, decimals: number) => {
  const r = parseAmount(input, decimals)
  if (r.ok && r.value === 0n) return { ok: false as const, error: { _tag: "AmountNotPositive", input } as AmountError }
  return r
}

/** Formats base units as the shortest exact decimal string ("1.5", "0", "0.00000001"). */
export const formatAmount = (value: bigint, decimals: number): string =>
  value < 0n ? "-" + formatDigits((-value).toString(), decimals) : formatDigits(value.toString(), decimals)

/**
 * The same for base units already written in decimal digits (a non-negative integer without leading zeros, as
 * events carry them): no BigInt needed. One toString and slices instead of a division, a remainder and a regex.
 */
export const formatDigits = (digits: string, decimals: number): string => {
  if (decimals === 0) return digits
  const split = digits.length - decimals
  let end = digits.length
  while (end > 0 && end > split && digits.charCodeAt(end - 1) === 48) end--
  if (split <= 0) return end <= 0 ? "0" : "0." + zeros(-split) + digits.slice(0, end)
  return end === split ? digits.slice(0, split) : digits.slice(0, split) + "." + digits.slice(split, end)
}
