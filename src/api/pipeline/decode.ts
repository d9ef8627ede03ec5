// Input decoded once: a spec's attributes checked in the spec's order and with its `details`, and what passes typed
// as the spec's Effect Schema decodes it, so that the handler gets typed values (typed.ts) and no cast of its own.
import { type AttributeSpec, attributeChecker, type Decoded, type JsonObject } from "../body.js"
import type { ApiError } from "../errors.js"

/**
 * Missing required (409), then unknown (409), then bad values (400), as `attributeChecker` answers them; what passes
 * is the value of `attributesSchema(spec)`'s decoded type. Today's schemas only check (strings, literals, booleans,
 * arrays and structs of them), so an accepted value decodes to itself, and it is passed on as it is: no copy, no
 * second walk on the request's path. test/properties/input-decoding.props.test.ts holds the two to the same error
 * and the same value for every declared spec; a schema that transforms (an amount text to a bigint, say) would make
 * it fail, and would be run here. The checks accept nothing their schemas refuse (test/unit/api/request-schemas).
 */
export const attributeDecoder = <S extends AttributeSpec>(
  spec: S,
  extra: (attributes: ReadonlyArray<string>) => ApiError,
): ((values: JsonObject) => Decoded<S> | ApiError) => {
  const check = attributeChecker(spec, extra)
  // The cast is the schema's own claim, which the property test checks: every accepted value is of its decoded type.
  return (values) => check(values) ?? (values as Decoded<S>)
}
