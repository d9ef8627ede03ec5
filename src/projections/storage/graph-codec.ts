// A whole object graph (the read models) to flat columns and back: the format is graph-format.ts, the encoder
// graph-encode.ts, the decoder graph-decode.ts. This module names what their users take from them.
export { decodeGraph } from "./graph-decode.js"
export { encodeGraph } from "./graph-encode.js"
export {
  CorruptGraph,
  classRegistry,
  type EncodedGraph,
  type LoadedGraph,
  type TypedColumn,
  typedColumnsOf,
  UnsupportedValue,
} from "./graph-format.js"
