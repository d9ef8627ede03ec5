// The error answers of a document, each kept once in components.responses: operations that can answer a status with
// the same codes refer to one response (`Error{status}`, or `Error{status}_{n}` when the status has several code
// sets in the document, numbered in the order of their codes). An operation refers to each of its error statuses.
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { JsonObject } from "../body.js"
import type { Operation } from "../operation.js"
import { errorCodes, errorResponse } from "./errors.js"

const RESPONSES = "#/components/responses/"

export interface ErrorResponses {
  /** An operation's error answers: status → the reference to its shared response. */
  readonly of: (op: Operation) => JsonObject
  /** components.responses. */
  readonly components: Record<string, JsonObject>
}

export const errorResponses = (envelope: JsonObject, operations: ReadonlyArray<Operation>, version: ApiVersion): ErrorResponses => {
  const perOperation = new Map(operations.map((op) => [op, errorCodes(op, version)]))
  const sets = new Map<number, Map<string, ReadonlyArray<string>>>()
  for (const answers of perOperation.values())
    for (const [status, codes] of answers) {
      const known = sets.get(status) ?? new Map<string, ReadonlyArray<string>>()
      known.set(codes.join(" "), codes)
      sets.set(status, known)
    }
  const names = new Map<string, string>()
  const components: Record<string, JsonObject> = {}
  for (const [status, known] of [...sets].sort(([a], [b]) => a - b)) {
    const ordered = [...known].sort(([a], [b]) => a.localeCompare(b))
    ordered.forEach(([key, codes], i) => {
      const name = ordered.length === 1 ? `Error${status}` : `Error${status}_${i + 1}`
      names.set(`${status} ${key}`, name)
      components[name] = errorResponse(envelope, status, codes)
    })
  }
  return {
    of: (op) =>
      Object.fromEntries(
        (perOperation.get(op) ?? errorCodes(op, version)).map(([status, codes]) => [
          String(status),
          { $ref: RESPONSES + names.get(`${status} ${codes.join(" ")}`) },
        ]),
      ),
    components,
  }
}
