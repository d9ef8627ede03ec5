// The operation record and its mounting, where the routes and the app import them (the pipeline is in pipeline/).
export { mount } from "./pipeline/mount.js"
export { operation } from "./pipeline/typed.js"
export {
  bodyAt,
  type ObservedAnswer,
  type Operation,
  type OperationContext,
  type OperationResult,
  pagedAt,
} from "./pipeline/operation.js"
