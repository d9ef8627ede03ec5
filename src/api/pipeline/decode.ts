// Input decoded once: a spec's attributes checked in the spec's order and with its `details`, then decoded by the
// spec's Effect Schema, so that the handler gets typed values (typed.ts) and no cast of its own.
import { Schema, SchemaAST } from "effect"
import { type AttributeSpec, attributeChecker, attributesSchema, type Decoded, type JsonObject } from "../body.js"
import type { ApiError } from "../errors.js"

/**
 * Missing required (409), then unknown (409), then bad values (400), as `attributeChecker` answers them; what passes
 * is decoded by `attributesSchema(spec)`. A schema that only checks (today's: strings, literals, booleans, arrays and
 * structs of them) decodes a value to itself, so that value is the decoded one, with no copy made on the request's
 * path; one that transforms (say an amount text to a bigint) is run. The checks accept nothing their schemas refuse
 * (test/unit/api/request-schemas.test.ts), and the decoded value is what the schema gives
 * (test/properties/input-decoding.props.test.ts).
 */
export const attributeDecoder = <S extends AttributeSpec>(
  spec: S,
  extra: (attributes: ReadonlyArray<string>) => ApiError,
): ((values: JsonObject) => Decoded<S> | ApiError) => {
  const check = attributeChecker(spec, extra)
  const schema = attributesSchema(spec)
  // The cast is the schema's own claim: every accepted value is of its decoded type.
  if (SchemaAST.toEncoded(schema.ast) === schema.ast) return (values) => check(values) ?? (values as Decoded<S>)
  const decode = Schema.decodeUnknownSync(schema as unknown as Schema.Codec<unknown, unknown, never, never>)
  return (values) => check(values) ?? (decode(values) as Decoded<S>)
}
