// Request attributes are declared with Effect Schemas: every body and query attribute of every operation has one,
// the OpenAPI documents give it as the attribute's type, and no check accepts a value its schema refuses.
import fc from "fast-check"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { checks, type FieldCheck } from "../../../src/api/body.js"
import { openApiDocument } from "../../../src/api/openapi.js"
import { bodyAt } from "../../../src/api/operation.js"
import { defaultOperations } from "../../../src/api/operations.js"
import { inlined } from "../../support/openapi.js"
import { API_VERSIONS } from "../../../src/domain/api-key/index.js"

/** Every declared check: [operation, version, attribute, check]. */
const declared = API_VERSIONS.flatMap((version) =>
  defaultOperations
    .filter((op) => op.versions === undefined || op.versions.includes(version))
    .flatMap((op) => {
      const body = bodyAt(op, version)
      const all = { ...body?.required, ...body?.optional, ...op.query?.required, ...op.query?.optional }
      return Object.entries(all).map(([attribute, check]) => ({ operation: op.id, version, attribute, check }))
    }),
)

/** Values a client might send: anything JSON can hold, and near misses of the shapes the spec uses. */
const candidates = fc.oneof(
  fc.jsonValue(),
  fc.anything(),
  fc.string({ maxLength: 300 }),
  fc.constantFrom("", "true", "false", "#00AA00", "#00aa0", "12", "-1", "0x", "a".repeat(1001)),
  fc.array(fc.record({ address: fc.string(), amount: fc.string(), assetId: fc.string() }, { requiredKeys: [] }), { maxLength: 3 }),
  fc.array(fc.record({ utxoId: fc.string({ maxLength: 3 }) }), { maxLength: 3 }),
  fc.record({ address: fc.string({ maxLength: 3 }), vaultAccountId: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }),
  fc.integer(),
)

describe("request schemas", () => {
  it("every body and query attribute of every operation, at every version, declares its schema", () => {
    expect(declared.length).toBeGreaterThan(80)
    expect(declared.filter((d) => d.check.schema === undefined).map((d) => `${d.version} ${d.operation}.${d.attribute}`)).toEqual([])
  })

  it("the OpenAPI documents give each attribute its type", () => {
    for (const version of API_VERSIONS) {
      const doc = inlined(openApiDocument(defaultOperations, version))
      for (const [path, methods] of Object.entries<any>(doc.paths))
        for (const [method, op] of Object.entries<any>(methods)) {
          const item = op.requestBody?.content["application/json"].schema.properties.data.properties.item
          for (const [name, schema] of Object.entries<any>(item?.properties ?? {}))
            expect([version, method, path, name, Object.keys(schema).length > 0]).toEqual([version, method, path, name, true])
        }
    }
    const create = inlined(openApiDocument(defaultOperations, "2026-03-20")).paths["/vaults/{vaultId}/vault-account"].post.requestBody
      .content["application/json"].schema.properties.data.properties.item
    expect(create.properties).toEqual({
      name: { type: "string", maxLength: 100, minLength: 1 },
      color: { type: "string", pattern: "^#[0-9A-Fa-f]{6}$" },
      isHiddenInDashboard: { type: "boolean" },
    })
  })

  it("no check accepts a value its schema refuses", () => {
    const unique = [...new Map(declared.map((d) => [d.check, d])).values()]
    const is = new Map(unique.map((d) => [d.check, Schema.is(d.check.schema as Schema.Top & Schema.Codec<unknown, unknown, never, never>)]))
    fc.assert(
      fc.property(candidates, (value) => {
        for (const d of unique)
          if (d.check(value) === undefined && !is.get(d.check)!(value))
            throw new Error(`${d.operation}.${d.attribute} accepts ${JSON.stringify(value)}, its schema does not`)
      }),
      { numRuns: 2_000 },
    )
  })

  it("the generic checks accept exactly what their schemas accept", () => {
    const generic: ReadonlyArray<FieldCheck> = [
      checks.string(),
      checks.string({ min: 1, max: 100 }),
      checks.string({ max: 5, pattern: /^[a-f0-9]+$/ }),
      checks.boolean(),
      checks.oneOf(["slow", "standard", "fast"]),
      checks.color(),
      checks.booleanText(),
    ]
    fc.assert(
      fc.property(candidates, (value) => {
        for (const check of generic)
          expect(check(value) === undefined).toBe(
            Schema.is(check.schema as Schema.Top & Schema.Codec<unknown, unknown, never, never>)(value),
          )
      }),
      { numRuns: 2_000 },
    )
  })
})
