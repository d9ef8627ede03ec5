// API key decider: a key is created once and revoked at most once.
import { describe, it } from "vitest"
import { apiKeyDecider, type ApiKeyEvent, type ApiKeyGrant } from "../../../src/domain/api-key/index.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(apiKeyDecider)
const now = simInstant(1_000)
const grant: ApiKeyGrant = {
  key: "k1",
  name: "default",
  secret: "c2VjcmV0",
  passphraseSalt: "aa",
  passphraseHash: "bb",
  scopes: ["read"],
  vaultIds: null,
  networkTypes: ["test"],
  ipAllowlist: null,
  plan: { mainnets: false, endpoints: "all" },
  apiVersion: "2024-05-09",
  activeFrom: null,
  rateLimit: { perSecond: 10, burst: 20 },
}
const created: ApiKeyEvent = { type: "ApiKeyCreated", data: { ...grant, at: now } }
const revoked: ApiKeyEvent = { type: "ApiKeyRevoked", data: { key: "k1", at: now } }

describe("api key decider", () => {
  describe("CreateApiKey", () => {
    it("creates a key that does not exist", () => {
      spec.given([]).when({ type: "CreateApiKey", grant, now }).then([created])
    })
    it("refuses a key that exists", () => {
      spec.given([created]).when({ type: "CreateApiKey", grant, now }).thenFails({ _tag: "ApiKeyAlreadyExists", key: "k1" })
    })
    it("refuses a key that was revoked: a key is never reused", () => {
      spec.given([created, revoked]).when({ type: "CreateApiKey", grant, now }).thenFails({ _tag: "ApiKeyAlreadyExists", key: "k1" })
    })
  })
  describe("RevokeApiKey", () => {
    it("revokes an active key", () => {
      spec.given([created]).when({ type: "RevokeApiKey", now }).then([revoked])
    })
    it("refuses a key that does not exist", () => {
      spec.given([]).when({ type: "RevokeApiKey", now }).thenFails({ _tag: "ApiKeyNotFound", key: "" })
    })
    it("refuses a key revoked already", () => {
      spec.given([created, revoked]).when({ type: "RevokeApiKey", now }).thenFails({ _tag: "ApiKeyNotFound", key: "k1" })
    })
  })
})
