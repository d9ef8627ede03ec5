// The control plane's OpenAPI document (plain JSON; bodies as each route's README row describes).
import type { JsonObject } from "../body.js"
import type { SimRoute } from "../sim/common.js"
import { openApiPath, pathParams } from "./parameters.js"

export const controlPlaneDocument = (routes: ReadonlyArray<SimRoute>): JsonObject => {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const entry = (paths[openApiPath(r.path)] ??= {})
    entry[r.method.toLowerCase()] = {
      parameters: pathParams(r.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...(r.public ? { security: [] } : {}),
      ...(r.method === "POST" || r.method === "PUT"
        ? { requestBody: { content: { "application/json": { schema: { type: "object" } } } } }
        : {}),
      responses: {
        default: { description: "the answer, or { error: { code, message } }", content: { "application/json": { schema: {} } } },
      },
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "custody-sim control plane", version: "1" },
    security: [{ admin: [] }],
    components: { securitySchemes: { admin: { type: "http", scheme: "bearer" } } },
    paths,
  }
}
