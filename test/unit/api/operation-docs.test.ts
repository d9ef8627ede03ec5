// Every mounted operation is documented in its own declaration (summary, description, tags of the service's
// categories); the documents carry them.
import { describe, expect, it } from "vitest"
import { TAGS } from "../../../src/api/openapi/operation-docs.js"
import { defaultOperations } from "../../../src/api/operations.js"
import { openApiDocument } from "../../../src/api/openapi.js"

describe("operation documentation", () => {
  it("every mounted operation declares its documentation", () => {
    expect(defaultOperations.filter((op) => op.doc === undefined).map((op) => op.id)).toEqual([])
  })

  it("each entry has a summary, a description and known tags", () => {
    const tags = new Set<string>(TAGS.map((t) => t.name))
    for (const { id, doc } of defaultOperations) {
      if (doc === undefined) continue
      expect([id, doc.summary.length > 0, doc.description.length > 20, doc.tags.length > 0]).toEqual([id, true, true, true])
      for (const tag of doc.tags) expect([id, tags.has(tag)]).toEqual([id, true])
    }
  })

  it("the documents carry them", () => {
    const doc = openApiDocument(defaultOperations, "2026-03-20") as any
    const create = doc.paths["/vaults/{vaultId}/vault-account"].post
    expect(create.summary).toBe("Create vault account")
    expect(create.tags).toEqual(["Vault Accounts"])
    expect(create.description).toContain("backed up")
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Transaction Requests")
  })
})
