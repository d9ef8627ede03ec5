// The EventStoreDB test double: a gRPC server speaking the client's Streams protocol over an in-memory log.
export { startEsdbDouble } from "./server.js"
export type { EsdbDouble, EsdbDoubleOptions } from "./server.js"
export { createEsdbDoubleState, EsdbDoubleState } from "./state.js"
export type { EsdbDoubleStateOptions, StoredEvent } from "./state.js"
