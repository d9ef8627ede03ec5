// The line writer (src/cli/request-log-line.ts) against the general way of request-log.ts: whatever it writes is the
// bytes of `formatEntry(entryOf(…))` and a newline, in both formats, call after call with one writer (what it
// remembers from the last call must never leak into the next line), and never past the room it is given.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { entryOf, formatEntry } from "../../src/cli/request-log.js"
import { LINE_ROOM, lineWriter, NOT_WRITTEN, type Answer, type LogFormat } from "../../src/cli/request-log-line.js"

const expected = (format: LogFormat, c: Answer): Buffer =>
  Buffer.from(
    `${formatEntry(
      entryOf(() => "signed", ...c),
      format,
    )}\n`,
    "utf8",
  )

/** A writer's bytes for each call, in order, or NOT_WRITTEN; each written at an odd place in a buffer with guards. */
const written = (format: LogFormat, calls: ReadonlyArray<Answer>, at = 7): Array<Buffer | typeof NOT_WRITTEN> => {
  const writer = lineWriter(format)
  return calls.map((c) => {
    const to = Buffer.alloc(at + LINE_ROOM + 64, 0xee)
    const end = writer.write(to, at, ...c)
    expect(to.subarray(0, at).every((b) => b === 0xee)).toBe(true)
    expect(to.subarray(at + LINE_ROOM).every((b) => b === 0xee)).toBe(true)
    return end === NOT_WRITTEN ? NOT_WRITTEN : Buffer.from(to.subarray(at, end))
  })
}

const envelope = (requestId: string) => `{"apiVersion":"2024-05-09","requestId":"${requestId}","data":{"item":{"id":"v1"}}}`
const HEX = "6650cd3fb5e9b2a1c0d4e8f7"
const KEY = "a3f1c29e5b7d4e8f9a0b1c2d3e4f5a6b"
const NOW = Date.UTC(2026, 10, 28, 5, 17, 5, 42)
const plainCall = (over: Partial<Record<"now" | "micros", number>> = {}): Answer => [
  over.now ?? NOW,
  "GET",
  "/vaults",
  200,
  over.micros ?? 523,
  KEY,
  envelope(HEX),
]

describe("request log, line writer", () => {
  it("writes a signed read's line itself, the same bytes in both formats as the general way", () => {
    for (const format of ["text", "json"] as const) {
      const [line] = written(format, [plainCall()])
      expect(line).not.toBe(NOT_WRITTEN)
      expect((line as Buffer).toString("utf8")).toBe(expected(format, plainCall()).toString("utf8"))
    }
    expect(expected("text", plainCall()).toString()).toBe(`2026-11-28T05:17:05.042Z GET /vaults 200 0.5ms key=${KEY} request=${HEX}\n`)
  })

  it("durations: whole, with trailing zeros dropped, halves of a tenth, and long ones, as String and toFixed(1) write them", () => {
    const micros = [0, 1, 9, 10, 50, 99, 100, 150, 250, 349, 350, 351, 950, 999, 1000, 1050, 12_340, 99_950, 123_456_789, 4_000_000_050]
    for (const format of ["text", "json"] as const) {
      const calls = micros.map((m) => plainCall({ micros: m }))
      const lines = written(format, calls)
      lines.forEach((line, i) => {
        expect(line).toEqual(expected(format, calls[i]!))
      })
    }
  })

  it("an error, a refused signature, a request id that needs escaping: left to the general way", () => {
    const calls: ReadonlyArray<Answer> = [
      [NOW, "POST", "/vaults", 401, 100, KEY, `{"apiVersion":"2024-05-09","requestId":"${HEX}","error":{"code":"invalid_api_sign"}}`],
      [NOW, "GET", "/vaults", 200, 100, KEY, envelope('a\\"b')],
      [NOW, "GET", "/vaults", 200, 100, KEY, envelope("é")],
    ]
    for (const format of ["text", "json"] as const) expect(written(format, calls)).toEqual([NOT_WRITTEN, NOT_WRITTEN, NOT_WRITTEN])
  })

  // Any UTF-16 code unit (lone surrogates too), and often the characters the formats treat apart.
  const text = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('"', "\\", "\n", "\u0000", "\u007f", "\ud800", "\udc00", "é", "/", "a", "?", "&", "="),
    ),
  })
  const requestId = fc.oneof(
    fc.constant(HEX),
    fc.constant(""),
    fc.string({ minLength: 250, maxLength: 300, unit: fc.constantFrom("a", "b") }),
    text,
  )
  const bodyText = fc.oneof(
    requestId.map(envelope),
    requestId.map((id) => `${" ".repeat(1000)}${envelope(id)}`),
    fc.constant(`{"requestId":"${HEX}`),
    text,
  )
  const call: fc.Arbitrary<Answer> = fc.tuple(
    fc.oneof(fc.constant(NOW), fc.integer({ min: 0, max: 8.64e15 })),
    fc.oneof(fc.constantFrom("GET", "POST", "DELETE"), text),
    fc.oneof(fc.constantFrom("/vaults", "/vaults/v1/transactions", "/_sim/audit?token=s3cret&x=1", `/${"p".repeat(1600)}`), text),
    fc.oneof(fc.constantFrom(200, 201, 204, 400, 401, 404), fc.integer({ min: 100, max: 599 })),
    fc.oneof(
      fc.nat({ max: 10_000_000 }),
      fc.nat({ max: 200 }).map((n) => n * 50),
      fc.integer({ min: 0, max: 2 ** 53 - 1 }),
    ),
    fc.oneof(fc.constant(KEY), fc.constant(undefined), fc.constant(""), text),
    fc.oneof(
      fc.constant(undefined),
      bodyText,
      bodyText.map((b) => Buffer.from(b, "utf8")),
      bodyText.map((b) => new Uint8Array(Buffer.from(b, "latin1"))),
    ),
  )

  it("whatever it is given, call after call: the general way's bytes, or nothing", () => {
    fc.assert(
      fc.property(fc.constantFrom<LogFormat>("text", "json"), fc.array(call, { minLength: 1, maxLength: 8 }), (format, calls) => {
        written(format, calls).forEach((line, i) => {
          if (line !== NOT_WRITTEN) expect(line.toString("latin1")).toBe(expected(format, calls[i]!).toString("latin1"))
        })
      }),
      { numRuns: 1_000 },
    )
  })
})
