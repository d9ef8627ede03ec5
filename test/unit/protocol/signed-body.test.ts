// The body the signature covers: JSON's whitespace outside strings removed, nothing else changed.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { signatureMessage, signedBody } from "../../../src/protocol/signing.js"

const whitespace = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 4 })

/** JSON text of `v` with arbitrary JSON whitespace between its tokens (its strings' text as JSON.stringify writes it). */
const spaced = (v: unknown, gap: () => string): string => {
  if (Array.isArray(v)) return `[${gap()}${v.map((x) => `${spaced(x, gap)}${gap()}`).join(`,${gap()}`)}]`
  if (v !== null && typeof v === "object")
    return `{${gap()}${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}${gap()}:${gap()}${spaced(x, gap)}${gap()}`)
      .join(`,${gap()}`)}}`
  return JSON.stringify(v)
}

describe("signedBody", () => {
  it("of any JSON text with whitespace between its tokens is the same text without it", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(whitespace, { minLength: 1, maxLength: 16 }), whitespace, (v, gaps, edge) => {
        let i = 0
        const gap = () => gaps[i++ % gaps.length]!
        expect(signedBody(`${edge}${spaced(v, gap)}${edge}`)).toBe(JSON.stringify(v))
      }),
    )
  })

  it("leaves a minified body, and the spaces, escapes and quotes inside strings, as they are", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v)
        expect(signedBody(text)).toBe(text)
        expect(signedBody(JSON.stringify(v, null, 2))).toBe(text)
      }),
    )
    const inside = String.raw`{"a":" x\" \\ ","b":"\u0020 \n","c":"\\"}`
    expect(signedBody(inside)).toBe(inside)
    expect(signedBody(String.raw`{ "a" : " x\" \\ " , "b":"\u0020 \n" , "c" : "\\" }`)).toBe(inside)
    // number text as sent
    expect(signedBody('{ "n" : 1.50e+2 }')).toBe('{"n":1.50e+2}')
  })

  it("drops a leading byte order mark, and only a leading one", () => {
    expect(signedBody('\uFEFF { "a" : 1 }')).toBe('{"a":1}')
    expect(signedBody('{"a":"\uFEFF x"}')).toBe('{"a":"\uFEFF x"}')
  })

  it("of a body that is not JSON removes the same whitespace (a lexical scan, not a parse)", () => {
    expect(signedBody("not json ")).toBe("notjson")
    expect(signedBody('{"open": "string ')).toBe('{"open":"string ')
  })

  it("is what the signed message holds, and a body of whitespace alone is signed as none", () => {
    expect(signatureMessage({ timestamp: "1", method: "post", path: "/p", body: '{ "a" : " b " }', query: "{}" })).toBe(
      '1POST/p{"a":" b "}{}',
    )
    expect(signatureMessage({ timestamp: "1", method: "GET", path: "/p", body: " \r\n", query: "{}" })).toBe("1GET/p{}{}")
  })
})
