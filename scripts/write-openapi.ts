// Writes the OpenAPI documents into the package (dist/openapi/{version}.json and _sim.json), as the server serves them.
import { mkdirSync, writeFileSync } from "node:fs"
import { defaultOperations, defaultSimRoutes } from "../src/api/app.js"
import { openApiRoute } from "../src/api/documents.js"
import { controlPlaneDocument, documentVersions, openApiDocument } from "../src/api/openapi.js"

const dir = process.argv[2] ?? "dist/openapi"
mkdirSync(dir, { recursive: true })
for (const version of documentVersions)
  writeFileSync(`${dir}/${version}.json`, `${JSON.stringify(openApiDocument(defaultOperations, version), null, 2)}\n`)
writeFileSync(
  `${dir}/_sim.json`,
  `${JSON.stringify(controlPlaneDocument([...defaultSimRoutes, openApiRoute(() => undefined)]), null, 2)}\n`,
)
console.log(`OpenAPI documents written to ${dir}`)
