// A version's OpenAPI 3.1 document, built from the operation declarations: each operation's parameters, request
// body and answers, every schema named in components.schemas, every error answer kept once in components.responses.
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { JsonObject } from "../body.js"
import type { Operation } from "../operation.js"
import { errorEnvelope, existsAt, requestBody, successSchema, successStatus } from "./answers.js"
import { components } from "./components.js"
import { errorResponses } from "./error-responses.js"
import { TAGS } from "./operation-docs.js"
import { openApiPath, parameters, securitySchemes } from "./parameters.js"

const security = [{ apiKey: [], apiSign: [], apiTimestamp: [], apiPassphrase: [] }]

export const openApiDocument = (operations: ReadonlyArray<Operation>, version: ApiVersion): JsonObject => {
  const c = components()
  const here = operations.filter((op) => existsAt(op, version))
  const errors = errorResponses(errorEnvelope(c), here, version)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of here) {
    const body = requestBody(c, op, version)
    const entry = (paths[openApiPath(op.path)] ??= {})
    const docs = op.doc
    entry[op.method.toLowerCase()] = {
      operationId: op.id,
      summary: docs?.summary ?? op.id,
      ...(docs !== undefined ? { description: docs.description, tags: docs.tags } : {}),
      parameters: parameters(c, op, version),
      ...(body !== undefined ? { requestBody: body } : {}),
      responses: {
        [String(successStatus(op))]: {
          description: "success",
          content: { "application/json": { schema: successSchema(c, op, version) } },
        },
        ...errors.of(op),
      },
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "custody-sim REST API", version, description: `The simulated custody service's REST API at version ${version}.` },
    servers: [{ url: "/" }],
    security,
    tags: TAGS,
    components: {
      schemas: c.schemas(),
      responses: errors.components,
      securitySchemes,
    },
    paths,
  }
}
