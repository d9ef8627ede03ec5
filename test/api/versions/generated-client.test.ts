// A client generated from each version's OpenAPI document (openapi-typescript) compiles, and code written
// against 2026-03-20's names type-checks only against 2026-03-20's document.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import openapiTS, { astToString } from "openapi-typescript"
import ts from "typescript"
import { afterAll, describe, expect, it } from "vitest"
import { defaultOperations } from "../../../src/api/app.js"
import { documentVersions, openApiDocument } from "../../../src/api/openapi.js"

const dir = mkdtempSync(join(tmpdir(), "custody-sim-client-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const usage = (module: string) => `
import type { paths } from "./${module}.js"
type Assets = paths["/vaults/{vaultId}/assets"]["get"]["responses"]["200"]["content"]["application/json"]["data"]["item"]["assets"][number]
export const unit = (a: Assets): string => a.assetUnit
export const rate = (a: Assets): string => a.exchangeRateUnit
export const total = (a: Assets): string => a.assetData.totalAmount
`

const compile = (files: ReadonlyArray<string>) => {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: [],
    },
  )
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
}

describe("generated clients", () => {
  it("each version's document generates types that compile; 2026 names exist only in 2026", async () => {
    const files: Array<string> = []
    for (const version of documentVersions) {
      const types = astToString(await openapiTS(openApiDocument(defaultOperations, version) as never))
      const module = `api-${version}`
      writeFileSync(join(dir, `${module}.ts`), types)
      writeFileSync(join(dir, `use-${version}.ts`), usage(module))
      files.push(`${module}.ts`)
    }
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }))
    expect(compile([...files, "use-2026-03-20.ts"])).toEqual([])
    const old = compile(["use-2024-05-09.ts"])
    expect(old.some((d) => d.includes("assetUnit"))).toBe(true)
    expect(old.some((d) => d.includes("exchangeRateUnit"))).toBe(true)
  }, 120_000)
})
