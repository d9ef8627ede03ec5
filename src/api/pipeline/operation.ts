// The operation record: one spec endpoint, declared (method, path, versions, input checks, answer shape, handler).
import { API_VERSIONS, type ApiVersion, type Scope } from "../../domain/api-key/index.js"
import type { AsOf } from "../../projections/projection.js"
import type { ApiKeyRecord } from "../../projections/workspace.js"
import type { BodySpec, JsonObject, QuerySpec } from "../body.js"
import type { ApiDeps } from "../deps.js"
import type { Page } from "../envelope.js"
import type { ApiError } from "../errors.js"
import type { Shape } from "../wire/shape.js"
import type { Observed } from "../answer-observer.js"
import type { OperationDoc } from "../openapi/operation-docs/types.js"

export interface OperationContext {
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string>>
  readonly item: JsonObject
  readonly key: ApiKeyRecord
  readonly requestId: string
  readonly apiVersion: ApiVersion
  /** The x-sim-as-of position for reads; undefined means now. */
  readonly asOf: AsOf
  /** Whether this version pages the listing (`limit`, `startingAfter`, `hasMore`). */
  readonly paginated: boolean
}

export type OperationResult =
  | { readonly status: 200 | 201; readonly item: unknown }
  | { readonly status: 200; readonly page: Page<unknown> }
  | { readonly status: 200; readonly items: ReadonlyArray<unknown> }
  | { readonly status: 200; readonly data: unknown }
  | ApiError

export interface Operation {
  readonly id: string
  /** Its documentation in the OpenAPI documents (an endpoint's declaration always has one: `operation` requires it). */
  readonly doc?: OperationDoc
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly scope: Scope
  /** Answers 201 (default: POST does, except where false). */
  readonly created?: boolean
  /** A listing paged by `limit` and `startingAfter`: always (true) or from a version on. */
  readonly paginated?: boolean | ApiVersion
  /** Its page size when the request sets no `limit`, where the service's differs from DEFAULT_LIMIT (pagination.ts). */
  readonly defaultLimit?: number
  /** `answer` describes each item of `data.items` (paged or not) rather than `data.item`. */
  readonly list?: boolean
  readonly query?: QuerySpec
  readonly body?: BodySpec
  /** The body from a version on, where a later version changed it (before the first entry: `body`). */
  readonly bodySince?: { readonly [V in ApiVersion]?: BodySpec }
  /** The network type the call touches, when the path tells it (403 network checks). */
  readonly networkType?: (params: Readonly<Record<string, string>>, deps: ApiDeps) => "main" | "test" | undefined
  /** Name of the path parameter holding a vault id (403 vault checks come before the body is read). */
  readonly vaultParam?: string
  /** Its answer also depends on the simulated time (resources regenerating), not only on the log: cached per instant. */
  readonly clockDependent?: boolean
  /**
   * Answer fields other than `assetId` and `feePayerAssetId` that hold asset ids (`id` of the asset listings, and
   * their `startingAfter`): mapped to and from the fixture's asset ids, as those two are everywhere.
   */
  readonly assetIdKeys?: ReadonlyArray<string>
  /** The versions it exists in (default: all); in any other it is an unknown route. */
  readonly versions?: ReadonlyArray<ApiVersion>
  /**
   * The answer's shape per version: the item, each item of a page, or the data (wire/shape.ts). Handlers return
   * version-independent values named as in the oldest version; each version writes them in its own names.
   */
  readonly answer?: Shape
  readonly handle: (ctx: OperationContext, deps: ApiDeps) => OperationResult | Promise<OperationResult>
}

/** An answer the contract hook sees (answer-observer.ts holds the hook). */
export type ObservedAnswer = Observed<Operation>

/** The body an operation takes at a version. */
export const bodyAt = (op: Operation, version: ApiVersion): BodySpec | undefined => {
  let body = op.body
  if (op.bodySince !== undefined)
    for (const v of API_VERSIONS)
      if (API_VERSIONS.indexOf(v) <= API_VERSIONS.indexOf(version) && op.bodySince[v] !== undefined) body = op.bodySince[v]
  return body
}

export const pagedAt = (op: Operation, version: ApiVersion): boolean =>
  op.paginated === true || (typeof op.paginated === "string" && API_VERSIONS.indexOf(version) >= API_VERSIONS.indexOf(op.paginated))
