// Vault decider (profile and approval policy): a vault is created once; a policy needs an existing vault.
import { describe, it } from "vitest"
import type { VaultId } from "../../../src/domain/shared/ids.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { vaultDecider, type VaultAggregateEvent, type VaultProfile } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(vaultDecider)
const now = simInstant(1_000)
const vaultId = "aaaaaaaaaaaaaaaaaaaaaaaa" as VaultId
const profile: VaultProfile = { vaultId, name: "Ops", type: "test", color: "#112233", backuped: false }
const created: VaultAggregateEvent = { type: "VaultCreated", data: { ...profile, at: now } }

describe("vault decider", () => {
  describe("CreateVault", () => {
    it("creates a vault that does not exist", () => {
      spec.given([]).when({ type: "CreateVault", profile, now }).then([created])
    })
    it("refuses a vault id that exists", () => {
      spec.given([created]).when({ type: "CreateVault", profile, now }).thenFails({ _tag: "VaultAlreadyExists", vaultId })
    })
  })
  describe("SetApprovalPolicy", () => {
    it("sets the policy of an existing vault", () => {
      spec
        .given([created])
        .when({ type: "SetApprovalPolicy", mode: "manual", levels: 2, now })
        .then([{ type: "VaultApprovalPolicySet", data: { vaultId, mode: "manual", levels: 2, at: now } }])
    })
    it("sets it again, even to the same value (the last one holds)", () => {
      const set: VaultAggregateEvent = { type: "VaultApprovalPolicySet", data: { vaultId, mode: "auto", levels: 1, at: now } }
      spec.given([created, set]).when({ type: "SetApprovalPolicy", mode: "auto", levels: 1, now }).then([set])
    })
    it("refuses a vault that does not exist", () => {
      spec.given([]).when({ type: "SetApprovalPolicy", mode: "manual", levels: 1, now }).thenFails({ _tag: "VaultNotFound" })
    })
  })
})
