// API errors: one shape everywhere; every domain or infrastructure failure maps to a row here.
import type { ContentfulStatusCode } from "hono/utils/http-status"

export interface ErrorDetail {
  readonly attribute: string
  readonly message: string
}

export class ApiError {
  readonly _tag = "ApiError"
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly message: string,
    readonly details: ReadonlyArray<ErrorDetail> = [],
    readonly headers?: Record<string, string>,
  ) {}
}

export const isApiError = (u: unknown): u is ApiError => u instanceof ApiError

const detail = (attribute: string, message: string): ErrorDetail => ({ attribute, message })

/** The spec's error table (and the codes the README adds for its "not shown" conditions). */
export const errors = {
  missingAuthorizationHeader: (header: string) =>
    new ApiError(401, "missing_authorization_header", `The authentication header "${header}" is missing.`, [detail(header, "is required")]),
  missingApiKey: () =>
    new ApiError(401, "missing_api_key", 'The authentication header "x-api-key" is missing.', [detail("x-api-key", "is required")]),
  invalidApiKey: () => new ApiError(401, "invalid_api_key", "The API key or passphrase is invalid, deleted or not yet active."),
  invalidApiSign: () => new ApiError(401, "invalid_api_sign", "The request signature does not match the request."),
  invalidApiSignAfterBom: () =>
    new ApiError(
      401,
      "invalid_api_sign",
      "The request signature does not match the request. The body begins with a UTF-8 byte order mark, which is not part of the signed body: sign the JSON text without it.",
    ),
  replayedSignature: () =>
    new ApiError(401, "invalid_api_sign", "This request signature was already used; sign each request anew (the server rejects replays)."),
  invalidApiTimestamp: () =>
    new ApiError(
      401,
      "invalid_api_timestamp",
      "The request timestamp is outside the accepted window (30 s in the past, 10 s in the future).",
      [detail("x-api-timestamp", "must be the current UNIX time in seconds")],
    ),
  ipNotWhitelisted: (ip: string) =>
    new ApiError(403, "ip_address_not_whitelisted", `The caller address ${ip} is not on the API key's allowlist.`),
  endpointNotAllowedForApiKey: () =>
    new ApiError(403, "endpoint_not_allowed_for_api_key", "The API key lacks the scope for this endpoint."),
  endpointNotAllowedForPlan: () =>
    new ApiError(403, "endpoint_not_allowed_for_plan", "This endpoint is not included in the subscription plan."),
  mainnetsNotAllowedForPlan: () =>
    new ApiError(403, "feature_mainnets_not_allowed_for_plan", "Mainnet access is not included in the subscription plan."),
  mainnetNotAllowedForKey: () => new ApiError(403, "mainnet_not_allowed_for_key", "This API key may only be used on test networks."),
  testnetNotAllowedForKey: () => new ApiError(403, "testnet_not_allowed_for_key", "This API key may only be used on main networks."),
  notAllowedForWallet: () => new ApiError(403, "api_key_not_allowed_for_wallet", "The API key is not allowed to access this vault."),
  /** A vault unknown to the key on a vault-scoped route: 404 up to 2025-09-23, 403 from 2026-03-20 on. */
  unknownVault: (version: string): ApiError =>
    version === "2024-05-09" || version === "2025-09-23" ? errors.resourceNotFound("vault") : errors.notAllowedForWallet(),
  /** A path id not of the form the service issues (2026-03-20: 409, where an unknown one is 404). */
  malformedId: (attribute: string) =>
    new ApiError(409, "invalid_id_format", `The ${attribute} in the path is not a valid id.`, [
      detail(attribute, "must be 24 lowercase hex characters"),
    ]),
  invalidApiVersion: (accepted: ReadonlyArray<string>) =>
    new ApiError(409, "invalid_api_version", `Unknown API version. Accepted values: ${accepted.join(", ")}.`, [
      detail("x-api-version", `must be one of ${accepted.join(", ")}`),
    ]),
  missingRequiredAttributes: (attributes: ReadonlyArray<string>) =>
    new ApiError(
      409,
      "missing_required_attributes",
      `Required attributes are missing: ${attributes.join(", ")}.`,
      attributes.map((a) => detail(a, "is required")),
    ),
  extraBodyAttributes: (attributes: ReadonlyArray<string>) =>
    new ApiError(
      409,
      "extra_body_attributes",
      `Unknown body attributes: ${attributes.join(", ")}.`,
      attributes.map((a) => detail(a, "is not allowed")),
    ),
  extraQueryAttributes: (attributes: ReadonlyArray<string>) =>
    new ApiError(
      409,
      "extra_query_attributes",
      `Unknown query attributes: ${attributes.join(", ")}.`,
      attributes.map((a) => detail(a, "is not allowed")),
    ),
  unsupportedMediaType: () => new ApiError(415, "unsupported_media_type", 'The "Content-Type" header must be "application/json".'),
  invalidBodyStructure: (message = 'The body must be JSON wrapped as {"context"?: string, "data": {"item": {...}}}.') =>
    new ApiError(422, "invalid_request_body_structure", message),
  malformedJson: () => new ApiError(400, "invalid_request_body_structure", "The request body is not valid JSON."),
  bodyTooDeep: (levels: number) =>
    new ApiError(400, "invalid_request_body_structure", `The request body nests arrays and objects more than ${levels} levels deep.`),
  requestLimitReached: (retryAfterSeconds: number) =>
    new ApiError(429, "request_limit_reached", "The API key's request rate limit has been reached; back off and retry.", [], {
      "retry-after": String(retryAfterSeconds),
    }),
  tooManyFailedAuthentications: (retryAfterSeconds: number) =>
    new ApiError(429, "request_limit_reached", "Too many failed authentications from this address; back off and retry.", [], {
      "retry-after": String(retryAfterSeconds),
    }),
  /**
   * A fault's 429 (/_sim/faults): the rate-limit answer of the key's version, from 2026-03-20 on with the
   * `{requests}` per `{seconds}` second(s) wording of the 2026 rate-limit page.
   */
  faultRequestLimit: (version: string, perSecond: number) =>
    new ApiError(
      429,
      "request_limit_reached",
      version === "2024-05-09" || version === "2025-09-23"
        ? "The API key's request rate limit has been reached; back off and retry."
        : `Request limit reached: ${perSecond} requests per 1 second(s).`,
      [],
      { "retry-after": "1" },
    ),
  badGateway: () => new ApiError(502, "bad_gateway", "The service received an invalid answer from an upstream server."),
  serviceUnavailable: () => new ApiError(503, "service_unavailable", "The service is temporarily unavailable; retry later."),
  gatewayTimeout: () => new ApiError(504, "gateway_timeout", "An upstream server did not answer in time."),
  bodyAborted: () => new ApiError(400, "invalid_request_body_structure", "The request body was cut off by the client."),
  payloadTooLarge: (limit: number) => new ApiError(413, "request_body_too_large", `The request body exceeds ${limit} bytes.`),
  uriNotFound: () => new ApiError(400, "uri_not_found", "The specified URI has not been found. Check the URI and try again."),
  /** A path another version has: the same code, the message naming the versions (version-paths.ts). */
  uriNotFoundAt: (message: string, details: ReadonlyArray<ErrorDetail>) => new ApiError(400, "uri_not_found", message, details),
  invalidData: (details: ReadonlyArray<ErrorDetail>) =>
    new ApiError(400, "invalid_data", `Invalid attribute values: ${details.map((d) => d.attribute).join(", ")}.`, details),
  invalidPagination: (attribute: string, message: string) =>
    new ApiError(400, "invalid_pagination", "The pagination attributes are invalid.", [detail(attribute, message)]),
  limitGreaterThanAllowed: (max: number) =>
    new ApiError(400, "limit_greater_than_allowed", `The maximum number of items for this endpoint is ${max}; use pagination.`, [
      detail("limit", `must be at most ${max}`),
    ]),
  resourceNotFound: (what: string) => new ApiError(404, "resource_not_found", `The ${what} was not found.`),
  storeUnavailable: () => new ApiError(503, "service_unavailable", "The event store is unavailable; nothing was written. Retry later."),
  conflict: () => new ApiError(409, "concurrent_modification", "The resource was modified concurrently; retry the request."),
  internal: () => new ApiError(500, "internal_server_error", "An unexpected error occurred."),
} as const

export { detail }
