// Every generated OpenAPI document, each version's and the control plane's, passes Redocly's recommended ruleset
// (its CLI, as integrators run it) with no error and no warning but the exceptions README lists: no licence (the
// documents describe the service's API, whose licence is not the simulator's to state) and the ambiguous paths the
// service's own URL design makes (a chain name and a literal segment in the same place). The examples are linted
// too: each must conform to its schema (no-invalid-media-type-examples).
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { captureExamples } from "../../scripts/openapi-examples/capture.js"
import { defaultOperations, defaultSimRoutes } from "../../src/api/app.js"
import { openApiRoute } from "../../src/api/documents.js"
import { controlPlaneDocument, documentVersions, openApiDocument } from "../../src/api/openapi.js"
import { withExamples } from "../../src/api/openapi/examples.js"

const dir = mkdtempSync(join(tmpdir(), "custody-sim-lint-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The kept exceptions, as README lists them: [rule, the message's subject]. */
const EXCEPTIONS: ReadonlyArray<readonly [string, string]> = [
  ["info-license", "Info object should contain `license` field."],
  [
    "no-ambiguous-paths",
    "`/vaults/{vaultId}/{blockchain}/{network}/addresses` and `/vaults/{vaultId}/{blockchain}/transactions/{transactionId}`",
  ],
  [
    "no-ambiguous-paths",
    "`/vaults/{vaultId}/{blockchain}/transactions/{transactionId}` and `/vaults/{vaultId}/{blockchain}/{network}/transaction-requests`",
  ],
  [
    "no-ambiguous-paths",
    "`/vaults/{vaultId}/{blockchain}/transactions/{transactionId}` and `/vaults/{vaultId}/{blockchain}/{network}/token-transaction-requests`",
  ],
]

interface Problem {
  readonly ruleId: string
  readonly severity: string
  readonly message: string
  readonly location: ReadonlyArray<{ readonly source: { readonly ref: string }; readonly pointer: string }>
}

const excepted = (p: Problem) => EXCEPTIONS.some(([rule, text]) => p.ruleId === rule && p.message.includes(text))

describe("Redocly lint (recommended)", () => {
  it("every document has no error and no warning but the listed exceptions, and each exception still occurs", async () => {
    // As the build writes them: with the examples of the scripted run, which the lint holds to their schemas.
    const examples = await captureExamples()
    const files = documentVersions.map((v) => {
      const file = join(dir, `${v}.json`)
      writeFileSync(file, JSON.stringify(withExamples(openApiDocument(defaultOperations, v), examples[v]), null, 2))
      return file
    })
    const sim = join(dir, "_sim.json")
    writeFileSync(sim, JSON.stringify(controlPlaneDocument([...defaultSimRoutes, openApiRoute(() => undefined)]), null, 2))
    const { stdout } = await promisify(execFile)(
      join("node_modules", ".bin", "redocly"),
      ["lint", ...files, sim, "--extends", "recommended", "--format", "json"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, maxBuffer: 64 * 1024 * 1024 },
    )
    // One JSON report a document, written one after the other.
    const problems: Array<Problem> = stdout
      .replace(/^\}\{$/gm, "}\u0000{")
      .split("\u0000")
      .flatMap((report) => (JSON.parse(report) as { problems: Array<Problem> }).problems)
    const left = problems
      .filter((p) => !excepted(p))
      .map((p) => `${p.location[0]?.source.ref} ${p.location[0]?.pointer} ${p.ruleId}: ${p.message}`)
    expect(left).toEqual([])
    for (const [rule, text] of EXCEPTIONS)
      expect([rule, text, problems.some((p) => p.ruleId === rule && p.message.includes(text))]).toEqual([rule, text, true])
    expect(problems.every((p) => p.severity === "warn")).toBe(true)
  }, 240_000)
})
