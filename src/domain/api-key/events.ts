// API key events. The secret is kept (HMAC verification needs it); the passphrase only as a salted hash.
import type { VaultId } from "../shared/ids.js"
import type { SimInstant } from "../shared/sim-time.js"

/** read: every GET and address validation; write: accounts, assets, addresses; withdraw: transaction requests. */
export type Scope = "read" | "write" | "withdraw"
export const allScopes: ReadonlyArray<Scope> = ["read", "write", "withdraw"]

export interface ApiKeyPlan {
  /** Mainnet calls allowed (the spec: mainnet access requires a paid plan). */
  readonly mainnets: boolean
  /** Operation ids the plan includes, or "all". */
  readonly endpoints: "all" | ReadonlyArray<string>
}

export interface ApiKeyGrant {
  readonly key: string
  readonly name: string
  /** Base64 of the raw HMAC key bytes. */
  readonly secret: string
  readonly passphraseSalt: string
  readonly passphraseHash: string
  readonly scopes: ReadonlyArray<Scope>
  /** null: every vault. */
  readonly vaultIds: ReadonlyArray<VaultId> | null
  readonly networkTypes: ReadonlyArray<"main" | "test">
  /** null: any address. Entries are IPs or CIDR blocks. */
  readonly ipAllowlist: ReadonlyArray<string> | null
  readonly plan: ApiKeyPlan
  /** The version pinned to the key (used when a request has no x-api-version). */
  readonly apiVersion: string
  /** UNIX seconds before which the key is not yet active; null: active at once. */
  readonly activeFrom: number | null
  readonly rateLimit: { readonly perSecond: number; readonly burst: number }
}

export type ApiKeyEvent =
  | { readonly type: "ApiKeyCreated"; readonly data: ApiKeyGrant & { readonly at: SimInstant } }
  | { readonly type: "ApiKeyRevoked"; readonly data: { readonly key: string; readonly at: SimInstant } }
