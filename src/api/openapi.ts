// OpenAPI 3.1 documents built from the operation declarations: one per API version, and one for the control plane.
import { Schema } from "effect"
import { API_VERSIONS, type ApiVersion } from "../domain/api-key/index.js"
import type { FieldCheck, JsonObject } from "./body.js"
import { bodyAt, pagedAt, type Operation } from "./operation.js"
import { DEFAULT_LIMIT, MAX_LIMIT } from "./inputs/pagination.js"
import type { SimRoute } from "./sim/common.js"

export const errorEnvelopeSchema = (): Schema.Top => ErrorEnvelope

const Detail = Schema.Struct({ attribute: Schema.String, message: Schema.String })
const ErrorEnvelope = Schema.Struct({
  apiVersion: Schema.String,
  requestId: Schema.String,
  context: Schema.optionalKey(Schema.String),
  error: Schema.Struct({ code: Schema.String, message: Schema.String, details: Schema.Array(Detail) }),
})

export const jsonSchema = (schema: Schema.Top): JsonObject => {
  const doc = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  if (Object.keys(doc.definitions).length > 0) throw new Error("answer schemas are inlined: no identifiers")
  return doc.schema as JsonObject
}

/** A request attribute's JSON Schema: its check's declared schema, or `otherwise` for a check that declares none. */
const fieldSchema = (check: FieldCheck, otherwise: JsonObject): JsonObject =>
  check.schema !== undefined ? jsonSchema(check.schema) : otherwise

export const existsAt = (op: Operation, version: ApiVersion): boolean => op.versions === undefined || op.versions.includes(version)

export const successStatus = (op: Operation): 200 | 201 => (op.method === "POST" && op.created !== false ? 201 : 200)

/** The success envelope of an operation at a version, as an Effect Schema. */
export const successSchema = (op: Operation, version: ApiVersion): Schema.Top => {
  const answer = op.answer?.at(version).schema ?? Schema.Unknown
  const data = !op.list
    ? Schema.Struct({ item: answer })
    : pagedAt(op, version)
      ? Schema.Struct({
          limit: Schema.Int,
          startingAfter: Schema.optionalKey(Schema.String),
          hasMore: Schema.Boolean,
          items: Schema.Array(answer),
        })
      : Schema.Struct({ items: Schema.Array(answer) })
  return Schema.Struct({ apiVersion: Schema.Literal(version), requestId: Schema.String, context: Schema.optionalKey(Schema.String), data })
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")
const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)

const parameters = (op: Operation, version: ApiVersion) => [
  ...pathParams(op.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
  ...Object.entries(op.query?.required ?? {}).map(([name, check]) => ({
    name,
    in: "query",
    required: true,
    schema: fieldSchema(check, { type: "string" }),
  })),
  ...Object.entries(op.query?.optional ?? {}).map(([name, check]) => ({
    name,
    in: "query",
    required: false,
    schema: fieldSchema(check, { type: "string" }),
  })),
  ...(pagedAt(op, version)
    ? [
        {
          name: "limit",
          in: "query",
          required: false,
          schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: op.defaultLimit ?? DEFAULT_LIMIT },
        },
        { name: "startingAfter", in: "query", required: false, schema: { type: "string" } },
      ]
    : []),
  { name: "context", in: "query", required: false, schema: { type: "string" } },
  ...(op.method === "GET"
    ? [
        {
          name: "x-sim-as-of",
          in: "header",
          required: false,
          description: "position:<n> or time:<unix seconds>: answer as of then",
          schema: { type: "string" },
        },
      ]
    : []),
]

const requestBody = (op: Operation, version: ApiVersion) => {
  const body = bodyAt(op, version)
  if (body === undefined) return undefined
  const required = Object.keys(body.required)
  const fields = [...Object.entries(body.required), ...Object.entries(body.optional ?? {})]
  const item = {
    type: "object",
    properties: Object.fromEntries(fields.map(([n, check]) => [n, fieldSchema(check, {})])),
    required,
    additionalProperties: false,
  }
  return {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: {
            context: { type: "string" },
            data: { type: "object", properties: { item }, required: ["item"], additionalProperties: false },
          },
          required: ["data"],
          additionalProperties: false,
        },
      },
    },
  }
}

const security = [{ apiKey: [], apiSign: [], apiTimestamp: [], apiPassphrase: [] }]

export const openApiDocument = (operations: ReadonlyArray<Operation>, version: ApiVersion): JsonObject => {
  const errorSchema = jsonSchema(ErrorEnvelope)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    if (!existsAt(op, version)) continue
    const body = requestBody(op, version)
    const entry = (paths[openApiPath(op.path)] ??= {})
    entry[op.method.toLowerCase()] = {
      operationId: op.id,
      parameters: parameters(op, version),
      ...(body !== undefined ? { requestBody: body } : {}),
      responses: {
        [String(successStatus(op))]: {
          description: "success",
          content: { "application/json": { schema: jsonSchema(successSchema(op, version)) } },
        },
        default: { description: "error", content: { "application/json": { schema: errorSchema } } },
      },
    }
  }
  const header = (name: string) => ({ type: "apiKey", in: "header", name })
  return {
    openapi: "3.1.0",
    info: { title: "custody-sim REST API", version, description: `The simulated custody service's REST API at version ${version}.` },
    servers: [{ url: "/" }],
    security,
    components: {
      securitySchemes: {
        apiKey: header("x-api-key"),
        apiSign: header("x-api-sign"),
        apiTimestamp: header("x-api-timestamp"),
        apiPassphrase: header("x-api-passphrase"),
      },
    },
    paths,
  }
}

/** The control plane's routes (plain JSON; bodies as each route's README row describes). */
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

export const documentVersions: ReadonlyArray<ApiVersion> = API_VERSIONS
