// Givens shared by the vault aggregate's specs: one test vault with an account whose Ethereum address holds ETH
// and was credited 1000 base units, optionally under an approval policy.
import type { AssetId, VaultAccountId, VaultId } from "../../src/domain/shared/ids.js"
import { simInstant } from "../../src/domain/shared/sim-time.js"
import type { VaultAggregateEvent } from "../../src/domain/vault/index.js"

export const at = simInstant(1_000)
export const vaultId = "aaaaaaaaaaaaaaaaaaaaaaaa" as VaultId
export const acct = "bbbbbbbbbbbbbbbbbbbbbbbb" as VaultAccountId
export const ETH = "eth" as AssetId
export const address = "0x1111111111111111111111111111111111111111"

export const fundedVault = (policy?: { mode: "auto" | "manual"; levels: 1 | 2 }): Array<VaultAggregateEvent> => [
  { type: "VaultCreated", data: { vaultId, name: "v", type: "test", color: "#000000", backuped: false, at } },
  ...(policy !== undefined ? [{ type: "VaultApprovalPolicySet" as const, data: { vaultId, ...policy, at } }] : []),
  {
    type: "VaultAccountCreated",
    data: { vaultId, vaultAccountId: acct, ordinal: 1, name: "a", color: "#000000", isHiddenInDashboard: false, at },
  },
  {
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId: acct,
      blockchain: "ethereum",
      network: "sepolia",
      address,
      derivationPath: "m/44'/60'/1'/0/0",
      change: 0,
      index: 0,
      label: "x",
      addressType: "deposit",
      assetIds: [],
      at,
    },
  },
  { type: "AssetAdded", data: { vaultId, vaultAccountId: acct, assetId: ETH, blockchain: "ethereum", network: "sepolia", address, at } },
  {
    type: "DepositCredited",
    data: {
      vaultId,
      vaultAccountId: acct,
      transactionId: "0xd1",
      blockchain: "ethereum",
      network: "sepolia",
      address,
      fromAddress: "0x2",
      assetId: ETH,
      amount: "1000",
      blockHeight: 1,
      blockHash: "0xb",
      confirmations: 1,
      vout: null,
      at,
    },
  },
]
