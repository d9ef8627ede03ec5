// Every operation declares its answer's shape, so each version's OpenAPI document describes what it answers: no
// operation's success item, page item or data is left as an empty (anything goes) schema.
import { describe, expect, it } from "vitest"
import { openApiDocument } from "../../../src/api/openapi.js"
import { defaultOperations } from "../../../src/api/operations.js"
import { API_VERSIONS } from "../../../src/domain/api-key/index.js"
import { inlined } from "../../support/openapi.js"

type Json = { readonly [k: string]: any }

/** The schema of `data` in an operation's success answer, as the document gives it. */
const successData = (document: Json, path: string, method: string): Json | undefined => {
  const responses = document.paths[path]?.[method]?.responses ?? {}
  const ok = responses["200"] ?? responses["201"]
  return ok?.content?.["application/json"]?.schema?.properties?.data
}

describe("answer shapes", () => {
  it("every operation of the spec declares one", () => {
    expect(defaultOperations.filter((op) => op.answer === undefined).map((op) => op.id)).toEqual([])
  })

  for (const version of API_VERSIONS)
    it(`the ${version} document describes every success answer`, () => {
      const document = inlined(openApiDocument(defaultOperations, version)) as Json
      const empty: Array<string> = []
      for (const [path, methods] of Object.entries(document.paths as Json))
        for (const method of Object.keys(methods)) {
          const data = successData(document, path, method)
          if (data === undefined) continue
          const described = [data, data.properties?.item, data.properties?.items?.items, data.allOf?.[1]?.properties.items.items].filter(
            (s) => s !== undefined,
          )
          if (described.some((s) => Object.keys(s).length === 0)) empty.push(`${method.toUpperCase()} ${path}`)
        }
      expect(empty).toEqual([])
    })
})
