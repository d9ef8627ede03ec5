// An operation's answers as named schemas: its success envelope (`…R`) around its item (`…RI`, or the name its wire
// shape gives itself), a page's `Pagination`, and the error envelope every error answer has.
import { Schema } from "effect"
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { JsonObject } from "../body.js"
import { bodyAt, pagedAt, type Operation } from "../operation.js"
import { type Components, schemaStem } from "./components.js"
import { fieldSchema } from "./parameters.js"

export const existsAt = (op: Operation, version: ApiVersion): boolean => op.versions === undefined || op.versions.includes(version)

export const successStatus = (op: Operation): 200 | 201 => (op.method === "POST" && op.created !== false ? 201 : 200)

const Detail = Schema.Struct({ attribute: Schema.String, message: Schema.String }).annotate({
  identifier: "ErrorDetail",
  description: "An attribute at fault and what is wrong with it.",
})
const ErrorEnvelope = Schema.Struct({
  apiVersion: Schema.String,
  requestId: Schema.String,
  context: Schema.optionalKey(Schema.String),
  error: Schema.Struct({ code: Schema.String, message: Schema.String, details: Schema.Array(Detail) }),
}).annotate({ identifier: "ErrorEnvelope", description: "Every error answer: its code, a message, and the attributes at fault." })

/** The reference to the error envelope (kept in the components). */
export const errorEnvelope = (c: Components): JsonObject => c.inline(ErrorEnvelope)

const Pagination = {
  type: "object",
  description: "A page of a listing: its size, the item it starts after, and whether more follow.",
  properties: {
    limit: { type: "integer", minimum: 1 },
    startingAfter: { type: "string" },
    hasMore: { type: "boolean" },
  },
  required: ["limit", "hasMore"],
}

const isRef = (json: JsonObject): boolean => typeof json.$ref === "string" && Object.keys(json).length === 1

/** The success envelope of an operation at a version: `{Stem}R`, its item `{Stem}RI` unless its shape is named. */
export const successSchema = (c: Components, op: Operation, version: ApiVersion): JsonObject => {
  const stem = schemaStem(op.id)
  const answer = c.inline(op.answer?.at(version).schema ?? Schema.Unknown)
  const item = isRef(answer) ? answer : c.name(`${stem}RI`, answer)
  const data = !op.list
    ? { type: "object", properties: { item }, required: ["item"], additionalProperties: false }
    : pagedAt(op, version)
      ? {
          allOf: [
            c.name("Pagination", Pagination),
            { type: "object", properties: { items: { type: "array", items: item } }, required: ["items"] },
          ],
          unevaluatedProperties: false,
        }
      : { type: "object", properties: { items: { type: "array", items: item } }, required: ["items"], additionalProperties: false }
  return c.name(`${stem}R`, {
    type: "object",
    properties: { apiVersion: { type: "string", const: version }, requestId: { type: "string" }, context: { type: "string" }, data },
    required: ["apiVersion", "requestId", "data"],
    additionalProperties: false,
  })
}

/** The request body `{Stem}RB` around its item `{Stem}RBDataItem`, or undefined for an operation without one. */
export const requestBody = (c: Components, op: Operation, version: ApiVersion) => {
  const body = bodyAt(op, version)
  if (body === undefined) return undefined
  const stem = schemaStem(op.id)
  const fields = [...Object.entries(body.required), ...Object.entries(body.optional ?? {})]
  const item = c.name(`${stem}RBDataItem`, {
    type: "object",
    properties: Object.fromEntries(fields.map(([n, check]) => [n, fieldSchema(c, check, {})])),
    required: Object.keys(body.required),
    additionalProperties: false,
  })
  const schema = c.name(`${stem}RB`, {
    type: "object",
    properties: {
      context: { type: "string" },
      data: { type: "object", properties: { item }, required: ["item"], additionalProperties: false },
    },
    required: ["data"],
    additionalProperties: false,
  })
  return { required: true, content: { "application/json": { schema } } }
}
