// API key state and decider errors.
import type { ApiKeyGrant } from "./events.js"

export type ApiKeyState =
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Active"; readonly grant: ApiKeyGrant }
  | { readonly _tag: "Revoked"; readonly grant: ApiKeyGrant }

export type ApiKeyError =
  | { readonly _tag: "ApiKeyAlreadyExists"; readonly key: string }
  | { readonly _tag: "ApiKeyNotFound"; readonly key: string }
