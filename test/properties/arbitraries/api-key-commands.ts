// API key commands against one key's stream: grants of every shape, creations repeated and revocations of
// absent or revoked keys on purpose.
import fc from "fast-check"
import type { ApiKeyCommand, ApiKeyEvent, ApiKeyGrant } from "../../../src/domain/api-key/index.js"
import type { VaultId } from "../../../src/domain/shared/ids.js"
import { NOW, VAULT_ID } from "./ids.js"

export const KEY = "key-under-test"

const hex = fc.string({ minLength: 2, maxLength: 4, unit: fc.constantFrom(..."0123456789abcdef") })

export const grant: fc.Arbitrary<ApiKeyGrant> = fc.record({
  key: fc.constant(KEY),
  name: fc.string({ maxLength: 8 }),
  secret: fc.base64String({ minLength: 4, maxLength: 12 }),
  passphraseSalt: hex,
  passphraseHash: hex,
  scopes: fc.subarray(["read", "write", "withdraw"] as const),
  vaultIds: fc.option(fc.constant([VAULT_ID] as ReadonlyArray<VaultId>), { nil: null }),
  networkTypes: fc.subarray(["main", "test"] as const, { minLength: 1 }),
  ipAllowlist: fc.option(fc.constant(["127.0.0.1/32"]), { nil: null }),
  plan: fc.record({ mainnets: fc.boolean(), endpoints: fc.constant("all" as const) }),
  apiVersion: fc.constantFrom("1.0", "2.0"),
  activeFrom: fc.option(fc.nat(), { nil: null }),
  rateLimit: fc.record({ perSecond: fc.integer({ min: 1, max: 100 }), burst: fc.integer({ min: 1, max: 100 }) }),
})

export const apiKeyCommand: fc.Arbitrary<ApiKeyCommand> = fc.oneof(
  grant.map((g): ApiKeyCommand => ({ type: "CreateApiKey", grant: g, now: NOW })),
  fc.constant<ApiKeyCommand>({ type: "RevokeApiKey", now: NOW }),
)

/** Events as a log might hold them, including ones the decider would never emit in that order (evolve must ignore them). */
export const apiKeyEvent: fc.Arbitrary<ApiKeyEvent> = fc.oneof(
  grant.map((g): ApiKeyEvent => ({ type: "ApiKeyCreated", data: { ...g, at: NOW } })),
  fc.constant<ApiKeyEvent>({ type: "ApiKeyRevoked", data: { key: KEY, at: NOW } }),
)
