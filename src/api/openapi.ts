// OpenAPI 3.1 documents built from the operation declarations: one per API version, and one for the control plane
// (the parts are in openapi/: named schemas, answers, parameters, the documents).
import { API_VERSIONS, type ApiVersion } from "../domain/api-key/index.js"

export { successStatus } from "./openapi/answers.js"
export { controlPlaneDocument } from "./openapi/control-plane.js"
export { openApiDocument } from "./openapi/document.js"

export const documentVersions: ReadonlyArray<ApiVersion> = API_VERSIONS
