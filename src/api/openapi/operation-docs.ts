// Each operation's documentation, by operation id (the tables are in operation-docs/, one per group of tags).
import { accountDocs } from "./operation-docs/accounts.js"
import { transferDocs } from "./operation-docs/transfers.js"
import type { OperationDoc } from "./operation-docs/types.js"

export { TAGS } from "./operation-docs/types.js"
export type { OperationDoc } from "./operation-docs/types.js"

export const operationDocs: Readonly<Record<string, OperationDoc>> = { ...accountDocs, ...transferDocs }
