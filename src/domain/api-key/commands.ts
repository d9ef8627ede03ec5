// API key commands.
import type { SimInstant } from "../shared/sim-time.js"
import type { ApiKeyGrant } from "./events.js"

export type ApiKeyCommand =
  | { readonly type: "CreateApiKey"; readonly grant: ApiKeyGrant; readonly now: SimInstant }
  | { readonly type: "RevokeApiKey"; readonly now: SimInstant }
