// The tags an operation's documentation may name (the shape is in operation-docs/types.ts): each endpoint declares its
// own (`doc` in its operation record, api/endpoints/).
export { TAGS } from "./operation-docs/types.js"
