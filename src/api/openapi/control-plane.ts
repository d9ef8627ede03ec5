// The control plane's OpenAPI document (plain JSON; bodies as each route's README row describes): each route named
// after its method and path, with the refusals every control-plane route can give.
import type { JsonObject } from "../body.js"
import type { SimRoute } from "../sim/common.js"
import { openApiPath, pathParams } from "./parameters.js"

/** `POST /_sim/vaults/:vaultId/approval-policy` → `postSimVaultsVaultIdApprovalPolicy`. */
const operationId = (r: SimRoute): string =>
  r.method.toLowerCase() +
  r.path
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")

const error = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: { error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } } },
      },
    },
  },
})

export const controlPlaneDocument = (routes: ReadonlyArray<SimRoute>): JsonObject => {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const r of routes) {
    const entry = (paths[openApiPath(r.path)] ??= {})
    const takesBody = r.method === "POST" || r.method === "PUT"
    entry[r.method.toLowerCase()] = {
      operationId: operationId(r),
      summary: `${r.method} ${openApiPath(r.path)}`,
      parameters: pathParams(r.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...(r.public ? { security: [] } : {}),
      ...(takesBody ? { requestBody: { content: { "application/json": { schema: { type: "object" } } } } } : {}),
      responses: {
        default: { description: "the answer", content: { "application/json": { schema: {} } } },
        "400": error("A body or value the route refuses (`invalid_request_body_structure`, `invalid_data`, …)."),
        ...(r.public ? {} : { "401": error("No admin token, or another (`unauthorized`).") }),
        "404": error("Something the route names does not exist (`resource_not_found`, …)."),
      },
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "custody-sim control plane",
      version: "1",
      description: "The simulator's own routes: keys, deposits, mining, faults, scenarios.",
    },
    servers: [{ url: "/" }],
    security: [{ admin: [] }],
    components: {
      securitySchemes: { admin: { type: "http", scheme: "bearer", description: "The control plane's admin token." } },
    },
    paths,
  }
}
