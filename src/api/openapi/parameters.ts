// An operation's parameters: its path's ids, its query attributes (their checks' schemas), the pagination of a
// paged listing, `context`, and a read's x-sim-as-of.
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { FieldCheck, JsonObject } from "../body.js"
import { pagedAt, type Operation } from "../operation.js"
import { DEFAULT_LIMIT, MAX_LIMIT } from "../pagination.js"
import type { Components } from "./components.js"

export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")
export const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)

/** A request attribute's JSON Schema: its check's declared schema, or `otherwise` for a check that declares none. */
export const fieldSchema = (c: Components, check: FieldCheck, otherwise: JsonObject): JsonObject =>
  check.schema !== undefined ? c.inline(check.schema) : otherwise

export const parameters = (c: Components, op: Operation, version: ApiVersion) => [
  ...pathParams(op.path).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
  ...Object.entries(op.query?.required ?? {}).map(([name, check]) => ({
    name,
    in: "query",
    required: true,
    schema: fieldSchema(c, check, { type: "string" }),
  })),
  ...Object.entries(op.query?.optional ?? {}).map(([name, check]) => ({
    name,
    in: "query",
    required: false,
    schema: fieldSchema(c, check, { type: "string" }),
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
