// The money codec against its definition: the decimal grammar, exact base units, the shortest decimal back.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatAmount, formatDigits, MAX_BASE_UNITS, parseAmount, parsePositiveAmount } from "../../../../src/domain/shared/money.js"

/** The definition, written the slow and obvious way. */
const reference = (input: string, decimals: number) => {
  if (input.length > 100) return { ok: false, tag: "MalformedAmount" }
  const m = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(input)
  if (m === null) return { ok: false, tag: "MalformedAmount" }
  const frac = (m[2] ?? "").replace(/0+$/, "")
  if (frac.length > decimals) return { ok: false, tag: "AmountTooPrecise" }
  const value = BigInt(m[1]!) * 10n ** BigInt(decimals) + (frac.length > 0 ? BigInt(frac.padEnd(decimals, "0")) : 0n)
  return value > MAX_BASE_UNITS ? { ok: false, tag: "AmountTooLarge" } : { ok: true, value }
}

const referenceFormat = (value: bigint, decimals: number): string => {
  const abs = value < 0n ? -value : value
  const scale = 10n ** BigInt(decimals)
  const frac = decimals === 0 ? "" : (abs % scale).toString().padStart(decimals, "0").replace(/0+$/, "")
  return (value < 0n ? "-" : "") + (abs / scale).toString() + (frac.length > 0 ? "." + frac : "")
}

const seen = (r: ReturnType<typeof parseAmount>) => (r.ok ? { ok: true, value: r.value as bigint } : { ok: false, tag: r.error._tag })

const decimalLike = fc.oneof(
  fc.stringMatching(/^[0-9]{0,3}(\.[0-9]{0,20})?$/),
  fc.stringMatching(/^[0-9.]{0,12}$/),
  fc.tuple(fc.bigInt({ min: 0n, max: MAX_BASE_UNITS * 10n }), fc.nat(30)).map(([v, d]) => referenceFormat(v, d)),
  fc.string({ maxLength: 8 }),
  fc.constantFrom("", ".", "0", "00", "0.", ".5", "01", "1.", "1..2", "0.0", "1e5", "-1", "+1", " 1", "1 ", "٣", "0.000", "10.10"),
)

describe("money", () => {
  it("parses exactly the decimal grammar, to the same base units, with the same refusals", () => {
    fc.assert(
      fc.property(decimalLike, fc.constantFrom(0, 2, 6, 8, 18, 30), (input, decimals) => {
        expect(seen(parseAmount(input, decimals))).toEqual(reference(input, decimals))
      }),
      { numRuns: 3000 },
    )
  })

  it("refuses what is not a string, too long, or zero where positive is asked", () => {
    expect(parseAmount(12 as never, 8)).toEqual({ ok: false, error: { _tag: "MalformedAmount", input: "12" } })
    expect(parseAmount("1".repeat(101), 8).ok).toBe(false)
    expect(parseAmount("1".repeat(79), 0)).toEqual({ ok: false, error: { _tag: "AmountTooLarge", input: "1".repeat(79) } })
    expect(parseAmount(MAX_BASE_UNITS.toString(), 0)).toEqual({ ok: true, value: MAX_BASE_UNITS })
    expect(parsePositiveAmount("0.000", 8)).toEqual({ ok: false, error: { _tag: "AmountNotPositive", input: "0.000" } })
    expect(parseAmount("0.0030", 8)).toEqual({ ok: true, value: 300000n })
  })

  it("formats the shortest exact decimal, from a bigint or from its digits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.constantFrom(0, 1, 2, 6, 8, 18, 30), (value, decimals) => {
        expect(formatAmount(value, decimals)).toBe(referenceFormat(value, decimals))
        if (value >= 0n) expect(formatDigits(value.toString(), decimals)).toBe(referenceFormat(value, decimals))
      }),
      { numRuns: 3000 },
    )
    expect(formatAmount(0n, 8)).toBe("0")
    expect(formatAmount(1n, 8)).toBe("0.00000001")
    expect(formatAmount(150000000n, 8)).toBe("1.5")
  })
})
