// The success envelope is built around already-serialised data: it must be the bytes JSON.stringify would write.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { envelopeWith } from "../../src/api/respond.js"

const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("2024-05-09", 'a"b', "a\\b", "\u2028", "\ud800", "é"))

describe("envelopeWith", () => {
  it("writes JSON.stringify's bytes for any version, request id and context", () => {
    fc.assert(
      fc.property(text, text, fc.option(text, { nil: undefined }), fc.jsonValue(), (apiVersion, requestId, context, data) => {
        const whole = context === undefined ? { apiVersion, requestId, data } : { apiVersion, requestId, context, data }
        expect(envelopeWith(apiVersion, requestId, context, JSON.stringify(data))).toBe(JSON.stringify(whole))
      }),
    )
  })
})
