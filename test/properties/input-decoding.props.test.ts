// Property: the pipeline's decoder (src/api/pipeline/decode.ts) refuses exactly what the spec's checks refuse, with
// the same error byte for byte (code, order, `details`), and what it accepts comes out as the spec's Effect Schema
// decodes it: for every operation's body and query spec at every version, and bodies valid, missing attributes,
// wrong-typed, too long, and with extra attributes.
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type AttributeSpec, attributeChecker, attributesSchema, type JsonObject } from "../../src/api/body.js"
import { errorBody } from "../../src/api/envelope.js"
import { errors, isApiError } from "../../src/api/errors.js"
import { bodyAt } from "../../src/api/operation.js"
import { defaultOperations } from "../../src/api/operations.js"
import { attributeDecoder } from "../../src/api/pipeline/decode.js"
import { API_VERSIONS } from "../../src/domain/api-key/index.js"
import { runs } from "./budget.js"

interface Declared {
  readonly name: string
  readonly spec: AttributeSpec
  readonly extra: (attributes: ReadonlyArray<string>) => ReturnType<typeof errors.extraBodyAttributes>
}

/** Every distinct spec an operation declares for its body or its query, at some version. */
const declared: ReadonlyArray<Declared> = [
  ...new Map(
    API_VERSIONS.flatMap((version) =>
      defaultOperations.flatMap((op): Array<[AttributeSpec, Declared]> => {
        const body = bodyAt(op, version)
        return [
          ...(body !== undefined
            ? [[body, { name: `${op.id} body at ${version}`, spec: body, extra: errors.extraBodyAttributes }] as [AttributeSpec, Declared]]
            : []),
          ...(op.query !== undefined
            ? [[op.query, { name: `${op.id} query`, spec: op.query, extra: errors.extraQueryAttributes }] as [AttributeSpec, Declared]]
            : []),
        ]
      }),
    ),
  ).values(),
]

/** Values a client might send for an attribute: valid ones of the shapes the spec uses, wrong types, too long. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("1", "0.5", "100", "0", "standard", "fast", "slow", "#00AA00", "true", "false", "", "x".repeat(1001), "a".repeat(65)),
  fc.boolean(),
  fc.integer(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.record({ address: fc.string({ maxLength: 5 }), amount: fc.constantFrom("1", "0.5", "x") }, { requiredKeys: [] }), {
    maxLength: 3,
  }),
  fc.array(fc.record({ utxoId: fc.string({ maxLength: 3 }) }), { maxLength: 3 }),
)

/** A body for a spec: each declared attribute present or not, and now and then one it does not declare. */
const bodyFor = (spec: AttributeSpec): fc.Arbitrary<JsonObject> => {
  const keys = [...Object.keys(spec.required ?? {}), ...Object.keys(spec.optional ?? {})]
  const declaredValues = fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] })
  const extra = fc.dictionary(fc.constantFrom("note2", "amount", "vaultId", "__proto__", "constructor", "extra"), value, { maxKeys: 2 })
  return fc
    .tuple(declaredValues, fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra }))
    .map(([own, more]) => {
      const body: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(more)) if (!keys.includes(k)) Object.defineProperty(body, k, { value: v, enumerable: true })
      return Object.assign(body, own)
    })
}

describe("input decoding", () => {
  it("decodes every declared spec as its checks and its schema say: the same refusal, else the schema's value", () => {
    expect(declared.length).toBeGreaterThan(25)
    let accepted = 0
    let refused = 0
    for (const d of declared) {
      const check = attributeChecker(d.spec, d.extra)
      const decode = attributeDecoder(d.spec, d.extra)
      const schemaDecode = Schema.decodeUnknownSync(attributesSchema(d.spec) as unknown as Schema.Codec<unknown, unknown, never, never>)
      fc.assert(
        fc.property(bodyFor(d.spec), (body) => {
          const before = check(body)
          const after = decode(body)
          if (before !== undefined) {
            refused++
            expect(isApiError(after), d.name).toBe(true)
            if (isApiError(after))
              expect(errorBody("2024-01-01", "r", undefined, after)).toBe(errorBody("2024-01-01", "r", undefined, before))
          } else {
            accepted++
            expect(isApiError(after), d.name).toBe(false)
            expect(after, d.name).toEqual(schemaDecode(body))
            expect(after, d.name).toEqual(body)
          }
        }),
        { numRuns: runs(1) },
      )
    }
    // Both ways are walked: bodies the specs accept and bodies they refuse.
    expect(accepted).toBeGreaterThan(declared.length)
    expect(refused).toBeGreaterThan(declared.length)
  })
})
