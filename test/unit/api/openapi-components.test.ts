// Each version's document names its schemas (components.schemas, referenced by $ref) as the service does: request
// bodies `…RB`, answers `…R` around their item, shared parts after what they are; one name per shape.
import { describe, expect, it } from "vitest"
import { defaultOperations } from "../../../src/api/operations.js"
import { documentVersions, openApiDocument } from "../../../src/api/openapi.js"

type Json = { readonly [k: string]: any }

const refs = (value: unknown, out: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) for (const v of value) refs(v, out)
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) k === "$ref" && typeof v === "string" ? out.push(v) : refs(v, out)
  return out
}

describe("named schemas", () => {
  for (const version of documentVersions)
    it(`the ${version} document references its request bodies, answers and shared parts by name`, () => {
      const doc = openApiDocument(defaultOperations, version) as Json
      const schemas: Json = doc.components.schemas
      // A schema (components.schemas) or a shared error answer (components.responses).
      for (const ref of refs(doc)) {
        const [kind, name] = ref.replace("#/components/", "").split("/") as [string, string]
        expect([kind, doc.components[kind]?.[name]], ref).toEqual([expect.stringMatching(/^(schemas|responses)$/), expect.anything()])
      }
      const texts = Object.values(schemas).map((s) => JSON.stringify(s))
      expect(new Set(texts).size).toBe(texts.length)
      for (const methods of Object.values<Json>(doc.paths))
        for (const op of Object.values<Json>(methods)) {
          const body = op.requestBody?.content["application/json"].schema
          if (body !== undefined) expect(body.$ref).toMatch(/^#\/components\/schemas\/\w+RB$/)
          const ok = op.responses["200"] ?? op.responses["201"]
          expect(ok.content["application/json"].schema.$ref).toMatch(/^#\/components\/schemas\/\w+R$/)
        }
      expect(Object.keys(schemas)).toEqual(expect.arrayContaining(["ErrorEnvelope", "ErrorDetail", "Amount", "Vault", "VaultAsset"]))
    })

  it("2026-03-20 names a vault account's creation as the service does", () => {
    const doc = openApiDocument(defaultOperations, "2026-03-20") as Json
    const create = doc.paths["/vaults/{vaultId}/vault-account"].post
    expect(create.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CreateVaultAccountRB" })
    expect(doc.components.schemas.CreateVaultAccountRB.properties.data.properties.item).toEqual({
      $ref: "#/components/schemas/CreateVaultAccountRBDataItem",
    })
    expect(doc.components.schemas.Pagination.required).toEqual(["limit", "hasMore"])
  })
})
