// An operation's error answers, derived from the checks the pipeline runs for it (DESIGN.md's order) and from the
// error table: each status with the codes it can carry there, all in the error envelope.
import { since, type ApiVersion } from "../../domain/api-key/index.js"
import type { JsonObject } from "../body.js"
import { errorTableAnswers } from "../error-table.js"
import { type ApiError, errors } from "../errors.js"
import { pagedAt, bodyAt, type Operation } from "../operation.js"
import { malformedIdCheck } from "../path-ids.js"

type Codes = Map<number, Set<string>>

const add = (codes: Codes, ...answers: ReadonlyArray<ApiError | { readonly status: number; readonly code: string }>): void => {
  for (const a of answers) {
    let set = codes.get(a.status)
    if (set === undefined) codes.set(a.status, (set = new Set()))
    set.add(a.code)
  }
}

const at = (status: number, code: string) => ({ status, code })

/** The checks every operation goes through: the Host, the signature and its limits, the key's grant, the version. */
const everyOperation = (codes: Codes): void =>
  add(
    codes,
    at(403, "host_not_allowed"),
    errors.missingApiKey(),
    errors.missingAuthorizationHeader("x-api-sign"),
    errors.invalidApiKey(),
    errors.invalidApiSign(),
    errors.invalidApiTimestamp(),
    errors.requestLimitReached(1),
    errors.ipNotWhitelisted(""),
    errors.endpointNotAllowedForApiKey(),
    errors.endpointNotAllowedForPlan(),
    errors.invalidApiVersion([]),
    errors.uriNotFound(),
    errors.extraQueryAttributes([]),
    // Every request, a read's too, says it is JSON.
    errors.unsupportedMediaType(),
    // x-sim-min-position: a bad value, or a position not reached in time.
    at(400, "invalid_data"),
    errors.storeUnavailable(),
    errors.internal(),
    // A fault set through /_sim/faults answers any operation with one of these before its work (docs/faults.md).
    errors.faultRequestLimit("2024-05-09", 1),
    errors.badGateway(),
    errors.serviceUnavailable(),
    errors.gatewayTimeout(),
  )

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable content",
  429: "Too many requests",
  500: "Internal server error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
}

/** Each status the operation can answer at a version with its codes, in ascending order. */
export const errorCodes = (op: Operation, version: ApiVersion): ReadonlyArray<readonly [number, ReadonlyArray<string>]> => {
  const codes: Codes = new Map()
  everyOperation(codes)
  const network = op.networkType !== undefined || op.vaultParam !== undefined
  if (network) add(codes, errors.mainnetsNotAllowedForPlan(), errors.mainnetNotAllowedForKey(), errors.testnetNotAllowedForKey())
  // A vault in the path the key may not see, or one that does not exist (403 or 404 by version).
  if (op.vaultParam !== undefined || op.path.includes(":vaultId")) add(codes, errors.notAllowedForWallet(), errors.unknownVault(version))
  if (since("2026-03-20").includes(version) && malformedIdCheck(op.path) !== undefined) add(codes, errors.malformedId(""))
  if (op.path.includes(":")) add(codes, errors.resourceNotFound(""))
  if (op.query?.required !== undefined && Object.keys(op.query.required).length > 0) add(codes, errors.missingRequiredAttributes([]))
  if (op.query !== undefined) add(codes, errors.invalidData([]))
  if (pagedAt(op, version)) add(codes, errors.invalidPagination("", ""), errors.limitGreaterThanAllowed(0))
  if (op.method === "GET") add(codes, at(400, "invalid_sim_as_of"))
  else {
    add(codes, errors.payloadTooLarge(0), errors.malformedJson(), errors.invalidBodyStructure())
    if (bodyAt(op, version) !== undefined)
      add(codes, errors.missingRequiredAttributes([]), errors.extraBodyAttributes([]), errors.invalidData([]))
    // A write runs a command: any row of the error table, and the parties' network check.
    add(codes, ...errorTableAnswers(), at(400, "network_not_allowed_for_vault"))
  }
  add(codes, ...(op.doc?.refusals ?? []))
  return [...codes].sort(([a], [b]) => a - b).map(([status, set]) => [status, [...set].sort()] as const)
}

/** An error answer of the document: the envelope, its code one of the status's codes. */
export const errorResponse = (envelope: JsonObject, status: number, codes: ReadonlyArray<string>): JsonObject => ({
  description: `${STATUS_NAMES[status] ?? "Error"}: ${codes.map((code) => `\`${code}\``).join(", ")}.`,
  content: {
    "application/json": {
      schema: {
        allOf: [
          envelope,
          // The envelope's message and details named again (any value: the envelope gives them their schema),
          // so that a validator holding examples to no unknown property (Redocly's) reads them as known here.
          {
            type: "object",
            properties: { error: { type: "object", properties: { code: { type: "string", enum: codes }, message: true, details: true } } },
          },
        ],
      },
    },
  },
})
