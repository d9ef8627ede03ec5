// The client signs as the protocol module says (shared with the API, which verifies).
export * from "../protocol/signing.js"
