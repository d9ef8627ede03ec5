// Writes the OpenAPI documents into the package (dist/openapi/{version}.json and _sim.json), as the server serves them:
// each version's with the examples of a scripted run of the simulator (scripts/openapi-examples/), which are kept in
// dist/openapi/examples.json for the server to merge into the documents it builds.
import { mkdirSync, writeFileSync } from "node:fs"
import { defaultOperations, defaultSimRoutes } from "../src/api/app.js"
import { openApiRoute } from "../src/api/documents.js"
import { controlPlaneDocument, documentVersions, openApiDocument } from "../src/api/openapi.js"
import { withExamples } from "../src/api/openapi/examples.js"
import { captureExamples } from "./openapi-examples/capture.js"

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

const dir = process.argv[2] ?? "dist/openapi"
mkdirSync(dir, { recursive: true })
const examples = await captureExamples()
writeFileSync(`${dir}/examples.json`, json(examples))
for (const version of documentVersions)
  writeFileSync(`${dir}/${version}.json`, json(withExamples(openApiDocument(defaultOperations, version), examples[version])))
writeFileSync(`${dir}/_sim.json`, json(controlPlaneDocument([...defaultSimRoutes, openApiRoute(() => undefined)])))
console.log(`OpenAPI documents and their examples written to ${dir}`)
