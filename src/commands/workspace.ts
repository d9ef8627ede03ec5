// Workspace use cases (the dashboard's part): create vaults, set approval policies, create and revoke API keys.
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import { Effect } from "effect"
import { allScopes, apiKeyDecider, apiKeyStream, NEWEST_API_VERSION, type ApiKeyGrant, type Scope } from "../domain/api-key/index.js"
import type { VaultId } from "../domain/shared/ids.js"
import { vaultDecider, vaultStream, type ApprovalMode, type VaultType } from "../domain/vault/index.js"
import { runDecider } from "./run-decider.js"
import { Ids, SimClock } from "./services.js"

/** The version of a key created without one. */
export const DEFAULT_API_VERSION = NEWEST_API_VERSION

export interface CreateVaultInput {
  readonly id?: string
  readonly name: string
  readonly type: VaultType
  readonly color?: string
  readonly backuped?: boolean
}

export const createVault = Effect.fn("createVault")(function* (input: CreateVaultInput) {
  const ids = yield* Ids
  const now = yield* (yield* SimClock).now
  const vaultId = (input.id ?? (yield* ids.next("vault"))) as VaultId
  const profile = {
    vaultId,
    name: input.name,
    type: input.type,
    color: input.color ?? "#1A73E8",
    backuped: input.backuped ?? false,
    ...(input.backuped !== undefined ? { backupStated: true as const } : {}),
  }
  return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "CreateVault", profile, now })
})

export const setApprovalPolicy = Effect.fn("setApprovalPolicy")(function* (vaultId: VaultId, mode: ApprovalMode, levels: 1 | 2) {
  const now = yield* (yield* SimClock).now
  return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "SetApprovalPolicy", mode, levels, now })
})

export interface CreateApiKeyInput {
  readonly key?: string
  readonly secret?: string
  readonly passphrase?: string
  readonly name?: string
  readonly scopes?: ReadonlyArray<Scope>
  readonly vaultIds?: ReadonlyArray<string> | null
  readonly networkTypes?: ReadonlyArray<"main" | "test">
  readonly ipAllowlist?: ReadonlyArray<string> | null
  readonly plan?: { readonly mainnets?: boolean; readonly endpoints?: "all" | ReadonlyArray<string> }
  readonly apiVersion?: string
  readonly activeFrom?: number | null
  readonly rateLimit?: { readonly perSecond: number; readonly burst: number }
}

export const hashPassphrase = (salt: string, passphrase: string): string => bytesToHex(sha256(utf8ToBytes(`${salt}:${passphrase}`)))

/** Creates a key; what is absent is generated from the seed. Returns the grant and the clear passphrase (shown once). */
export const createApiKey = Effect.fn("createApiKey")(function* (input: CreateApiKeyInput) {
  const ids = yield* Ids
  const now = yield* (yield* SimClock).now
  const nonce = yield* ids.next("apiKey")
  const key = input.key ?? bytesToHex(ids.bytes(`apiKey:${nonce}:key`, 20))
  const secret = input.secret ?? Buffer.from(ids.bytes(`apiKey:${nonce}:secret`, 32)).toString("base64")
  const passphrase = input.passphrase ?? bytesToHex(ids.bytes(`apiKey:${nonce}:passphrase`, 12))
  const passphraseSalt = bytesToHex(ids.bytes(`apiKey:${nonce}:salt`, 16))
  const grant: ApiKeyGrant = {
    key,
    name: input.name ?? "default",
    secret,
    passphraseSalt,
    passphraseHash: hashPassphrase(passphraseSalt, passphrase),
    scopes: input.scopes ?? allScopes,
    vaultIds: (input.vaultIds ?? null) as ApiKeyGrant["vaultIds"],
    networkTypes: input.networkTypes ?? ["main", "test"],
    ipAllowlist: input.ipAllowlist ?? null,
    plan: { mainnets: input.plan?.mainnets ?? true, endpoints: input.plan?.endpoints ?? "all" },
    apiVersion: input.apiVersion ?? DEFAULT_API_VERSION,
    activeFrom: input.activeFrom ?? null,
    rateLimit: input.rateLimit ?? { perSecond: 200, burst: 400 },
  }
  const result = yield* runDecider(apiKeyDecider, apiKeyStream(key), { type: "CreateApiKey", grant, now })
  return { ...result, grant, passphrase }
})

export const revokeApiKey = Effect.fn("revokeApiKey")(function* (key: string) {
  const now = yield* (yield* SimClock).now
  return yield* runDecider(apiKeyDecider, apiKeyStream(key), { type: "RevokeApiKey", now })
})
