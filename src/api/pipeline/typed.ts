// The typed way to declare an operation: `operation({ ... })` reads the path's parameters and the declared body and
// query specs, so that `handle` gets `params`, `query` and `item` as the decoded values the pipeline gives it.
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { AttributeSpec, BodySpec, Decoded, QuerySpec } from "../body.js"
import type { ApiDeps } from "../deps.js"
import type { OperationDoc } from "../openapi/operation-docs/types.js"
import type { Operation, OperationContext, OperationResult } from "./operation.js"

/** The names of a path's parameters: `"/vaults/:vaultId/accounts/:accountId"` gives `"vaultId" | "accountId"`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

/** A spec's decoded attributes; for a union of specs (a body that changed between versions), one of theirs. */
type DecodedAny<S> = S extends AttributeSpec ? Decoded<S> : never

/** What every query may carry besides the operation's own attributes (a paged listing's `limit`, `startingAfter`). */
interface CommonQuery {
  readonly context?: string
  readonly limit?: string
  readonly startingAfter?: string
}

/** An operation's context, typed from its declaration: the pipeline has checked and decoded every part of it. */
export interface TypedContext<P extends string, B, Q> extends Omit<OperationContext, "params" | "query" | "item"> {
  /** Each of the path's parameters, decoded (percent-escapes undone); the fixture's asset ids mapped. */
  readonly params: { readonly [K in PathParamNames<P>]: string }
  readonly query: CommonQuery & ([Q] extends [undefined] ? unknown : DecodedAny<Q>)
  /** `data.item` of the body, decoded by the spec of the request's version; an empty object for a GET. */
  readonly item: [B] extends [undefined] ? { readonly [k: string]: never } : DecodedAny<B>
}

type BodySince = { readonly [V in ApiVersion]?: BodySpec }

/** An operation's declaration, with `handle` typed from the rest of it. */
export type TypedOperation<
  P extends string,
  B extends BodySpec | undefined,
  S extends BodySince | undefined,
  Q extends QuerySpec | undefined,
> = Omit<Operation, "doc" | "path" | "body" | "bodySince" | "query" | "handle"> & {
  readonly doc: OperationDoc
  readonly path: P
  readonly body?: B
  readonly bodySince?: S
  readonly query?: Q
  readonly handle: (
    ctx: TypedContext<P, B | (S extends BodySince ? NonNullable<S[keyof S]> : undefined), Q>,
    deps: ApiDeps,
  ) => OperationResult | Promise<OperationResult>
}

/**
 * An operation whose handler reads its input typed. The pipeline decodes exactly what the declaration says
 * (pipeline/decode.ts), so the context it builds is the typed one; the one cast below says so to the compiler.
 * Name a generic check (`checks.oneOf([...])`) outside the declaration: called inside it, its own inference fixes
 * the body's type before the body is read (TypeScript's), and the handler's `item` loses its attributes.
 */
export const operation = <
  P extends string,
  B extends BodySpec | undefined = undefined,
  S extends BodySince | undefined = undefined,
  Q extends QuerySpec | undefined = undefined,
>(
  declaration: TypedOperation<P, B, S, Q>,
): Operation => declaration as unknown as Operation
