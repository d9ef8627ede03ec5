// An operation's parameters: its path's ids, its query attributes (their checks' schemas), the pagination of a
// paged listing (bounded as pagination.ts checks it), `context`, x-api-version, and a read's x-sim-as-of; the
// signing headers are the document's security schemes.
import { API_VERSIONS, type ApiVersion } from "../../domain/api-key/index.js"
import type { FieldCheck, JsonObject } from "../body.js"
import { pagedAt, type Operation } from "../operation.js"
import { DEFAULT_LIMIT, MAX_LIMIT } from "../inputs/pagination.js"
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
          description: `The page size (at most ${MAX_LIMIT}: 400 \`limit_greater_than_allowed\` beyond).`,
          schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: op.defaultLimit ?? DEFAULT_LIMIT },
        },
        {
          name: "startingAfter",
          in: "query",
          required: false,
          description: "The id of the previous page's last item.",
          schema: { type: "string", minLength: 1, maxLength: 200 },
        },
      ]
    : []),
  { name: "context", in: "query", required: false, description: "Echoed in the answer's `context`.", schema: { type: "string" } },
  {
    name: "x-api-version",
    in: "header",
    required: false,
    description: "Answers this request in another accepted version than the API key's (409 `invalid_api_version` otherwise).",
    schema: { type: "string", enum: [...API_VERSIONS] },
  },
  {
    name: "x-sim-min-position",
    in: "header",
    required: false,
    description:
      "Simulator: the request runs once this node has applied the event log up to this position (an answer's `x-sim-position`), or answers 503.",
    schema: { type: "string", pattern: "^(0|[1-9][0-9]{0,19})$" },
  },
  ...(op.method === "GET"
    ? [
        {
          name: "x-sim-as-of",
          in: "header",
          required: false,
          description:
            "Simulator: `position:<n>` (after the event at n) or `time:<unix seconds>`: the answer as of then (400 `invalid_sim_as_of`).",
          schema: { type: "string", pattern: "^(position|time):[0-9]{1,20}$" },
        },
      ]
    : []),
]

/** The four signing headers, as the spec's authentication describes them. */
export const securitySchemes = {
  apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "The API key." },
  apiSign: {
    type: "apiKey",
    in: "header",
    name: "x-api-sign",
    description:
      'Base64(HMAC-SHA256(Base64-decoded secret, `{timestamp}{METHOD}{path}{body or "{}"}{query as JSON or "{}"}`)); each signature is accepted once.',
  },
  apiTimestamp: {
    type: "apiKey",
    in: "header",
    name: "x-api-timestamp",
    description: "The current UNIX time in seconds (accepted from 30 s in the past to 10 s in the future).",
  },
  apiPassphrase: { type: "apiKey", in: "header", name: "x-api-passphrase", description: "The API key's passphrase." },
} as const
