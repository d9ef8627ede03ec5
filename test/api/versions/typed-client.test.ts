// A typed client as integrators build one: types generated from the 2026-03-20 document (openapi-typescript), calls
// through openapi-fetch with a signing middleware, against the running simulator: create a vault account, add an
// asset to it, read it back, and one error answer, all type-checked against the document before they run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import openapiTS, { astToString } from "openapi-typescript"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultOperations } from "../../../src/api/app.js"
import { openApiDocument } from "../../../src/api/openapi.js"
import { signRequest } from "../../../src/client/index.js"
import { findTestAsset } from "../../../src/testing.js"
import { type Harness, startHarness } from "../../support/harness.js"
import { listen } from "../../support/server.js"

// Inside the project, so that the program finds openapi-fetch as an installed package.
const dir = mkdtempSync(join(import.meta.dirname, "..", "..", "..", "node_modules", ".typed-client-"))
let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness({ apiVersion: "2026-03-20" })
  server = await listen(h.app)
})
afterAll(async () => {
  await server?.close()
  await h?.close()
  rmSync(dir, { recursive: true, force: true })
})

const program = `
import createClient, { type Middleware } from "openapi-fetch"
import type { paths } from "./api.js"

type Sign = (method: string, url: string, body: string) => Record<string, string>

export const run = async (baseUrl: string, sign: Sign, vaultId: string, assetId: string) => {
  const client = createClient<paths>({ baseUrl })
  const signing: Middleware = {
    async onRequest({ request }) {
      const url = new URL(request.url)
      const body = request.method === "GET" ? "" : await request.clone().text()
      for (const [k, v] of Object.entries(sign(request.method, url.pathname + url.search, body))) request.headers.set(k, v)
      return request
    },
  }
  client.use(signing)
  const created = await client.POST("/vaults/{vaultId}/vault-account", {
    params: { path: { vaultId } },
    body: { data: { item: { name: "typed", color: "#00AA00", isHiddenInDashboard: false } } },
  })
  if (created.data === undefined) throw new Error(JSON.stringify(created.error))
  const account: string = created.data.data.item.vaultAccountId
  const added = await client.PUT("/vaults/{vaultId}/vault-accounts/{vaultAccountId}/add-asset", {
    params: { path: { vaultId, vaultAccountId: account } },
    body: { data: { item: { assetId, label: "typed deposit" } } },
  })
  if (added.data === undefined) throw new Error(JSON.stringify(added.error))
  const address: string = added.data.data.item.address
  const read = await client.GET("/vaults/{vaultId}/vault-accounts/{vaultAccountId}/details", {
    params: { path: { vaultId, vaultAccountId: account } },
  })
  const name: string | undefined = read.data?.data.item.vaultAccountName
  const malformed = await client.GET("/vaults/{vaultId}/vault-accounts/{vaultAccountId}/details", {
    params: { path: { vaultId, vaultAccountId: "not-an-id" } },
  })
  const code: string | undefined = malformed.error?.error.code
  return { created: created.response.status, account, address, name, malformed: malformed.response.status, code }
}
`

describe("a typed client from the 2026-03-20 document", () => {
  it("type-checks and makes real calls: create, add an asset, read back, one error", async () => {
    writeFileSync(join(dir, "api.ts"), astToString(await openapiTS(openApiDocument(defaultOperations, "2026-03-20") as never)))
    writeFileSync(join(dir, "client.ts"), program)
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }))
    const checked = ts.createProgram([join(dir, "client.ts")], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      skipLibCheck: true,
      types: [],
    })
    const problems = ts.getPreEmitDiagnostics(checked).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    expect(problems).toEqual([])
    writeFileSync(
      join(dir, "client.js"),
      ts.transpileModule(program, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText,
    )
    const { run } = await import(join(dir, "client.js"))
    const eth = findTestAsset("ETH", "ethereum")
    const sign = (method: string, url: string, body: string) => signRequest(h.creds, { method, url, body })
    const r = await run(server.url, sign, h.testVaultId, eth.assetId)
    expect(r).toMatchObject({ created: 201, name: "typed", malformed: 409, code: "invalid_id_format" })
    expect(r.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  }, 120_000)
})
