// The examples of the OpenAPI documents (scripts/openapi-examples/, run by `npm run build:openapi`): every operation
// of every version has a success answer, a refusal and, where it takes a body, the body that asked, each valid
// against the schema its document gives it; two runs give the same bytes.
import { Ajv2020 } from "ajv/dist/2020.js"
import { beforeAll, describe, expect, it } from "vitest"
import { captureExamples } from "../../../scripts/openapi-examples/capture.js"
import { defaultOperations } from "../../../src/api/app.js"
import { documentVersions, openApiDocument } from "../../../src/api/openapi.js"
import { type Examples, withExamples } from "../../../src/api/openapi/examples.js"

let examples: Examples
let again: Examples
beforeAll(async () => {
  examples = await captureExamples()
  again = await captureExamples()
}, 60_000)

const pointer = (...parts: ReadonlyArray<string>) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")
const JSON_MEDIA = "application/json"

describe("the OpenAPI examples", () => {
  it("are the same bytes from two runs: ids, times and request ids come from the seed and the frozen clock", () => {
    expect(JSON.stringify(again)).toBe(JSON.stringify(examples))
    expect(Object.keys(examples)).toEqual([...documentVersions])
  })

  for (const version of documentVersions)
    it(`${version}: every operation has a request (where it takes a body), a success and an error example, each valid against its schema`, () => {
      const document = withExamples(openApiDocument(defaultOperations, version), examples[version]) as any
      const ajv = new Ajv2020({ strict: false, allErrors: true })
      ajv.addSchema(document, "doc")
      const problems: Array<string> = []
      const check = (where: string, media: any, ...at: ReadonlyArray<string>) => {
        if (media?.example === undefined) return problems.push(`${where}: no example`)
        const validate = ajv.compile({ $ref: `doc#/${pointer(...at, "content", JSON_MEDIA, "schema")}` })
        if (!validate(media.example)) problems.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 2))}`)
      }
      let operations = 0
      for (const [path, item] of Object.entries<any>(document.paths))
        for (const [method, op] of Object.entries<any>(item)) {
          operations++
          const id = `${op.operationId}`
          if (op.requestBody !== undefined) check(`${id} request`, op.requestBody.content[JSON_MEDIA], "paths", path, method, "requestBody")
          const statuses = Object.keys(op.responses)
          const success = statuses.find((s) => s.startsWith("2"))!
          check(`${id} ${success}`, op.responses[success].content[JSON_MEDIA], "paths", path, method, "responses", success)
          // The other error answers refer to the shared ones (components.responses), which carry no example.
          const errors = statuses.filter((s) => op.responses[s].content?.[JSON_MEDIA]?.example !== undefined && !s.startsWith("2"))
          if (errors.length === 0) problems.push(`${id}: no error example`)
          for (const s of errors) check(`${id} ${s}`, op.responses[s].content[JSON_MEDIA], "paths", path, method, "responses", s)
        }
      expect(problems).toEqual([])
      expect(operations).toBe(Object.keys(examples[version]!).length)
    })

  it("show what the run did: the 2026-03-20 account created is the one read back, in the vault listed", () => {
    const at = examples["2026-03-20"]!
    const created = (at.createVaultAccount!.answer.body as any).data.item
    const read = (at.getVaultAccount!.answer.body as any).data.item
    expect([at.createVaultAccount!.answer.status, read.vaultAccountId, read.vaultId]).toEqual([
      201,
      created.vaultAccountId,
      created.vaultId,
    ])
    expect((at.listVaults!.answer.body as any).data.items.map((v: { id: string }) => v.id)).toContain(created.vaultId)
    expect(at.createVaultAccount!.request).toEqual({
      data: { item: { name: created.vaultAccountName, color: "#00AA00", isHiddenInDashboard: false } },
    })
  })
})
