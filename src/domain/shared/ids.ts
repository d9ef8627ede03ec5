// Branded identifiers. Resource ids are 24 lowercase hex characters, like the real service's.
export type VaultId = string & { readonly VaultId: unique symbol }
export type VaultAccountId = string & { readonly VaultAccountId: unique symbol }
export type AssetId = string & { readonly AssetId: unique symbol }

/** The kinds of id the Ids service hands out; each has its own deterministic sequence. */
export type IdKind = "vault" | "vaultAccount" | "apiKey" | "txRequest" | "transaction" | "webhook" | "delivery" | "request" | "fault"
