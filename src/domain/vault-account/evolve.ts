// Folds account events into the vault's account state (in place, see VaultAccounts).
import { absurd } from "../shared/decider.js"
import type { VaultAccountEvent } from "./events.js"
import { accountKey, addressKey, branchKey, type VaultAccounts } from "./state.js"

export const evolveAccounts = (s: VaultAccounts, e: VaultAccountEvent): VaultAccounts => {
  switch (e.type) {
    case "VaultAccountCreated": {
      const { vaultId: _v, at, ...rest } = e.data
      if (!s.accounts.has(rest.vaultAccountId)) s.accounts.set(rest.vaultAccountId, { ...rest, createdAt: at })
      return s
    }
    case "AddressDerived": {
      const key = addressKey(e.data.blockchain, e.data.network, e.data.address)
      if (s.addresses.has(key)) return s
      const { at, ...facts } = e.data
      const record = { ...facts, assets: new Set(facts.assetIds), createdAt: at }
      s.addresses.set(key, record)
      const bk = branchKey(facts.vaultAccountId, facts.blockchain, facts.network, facts.change)
      const branch = s.branches.get(bk)
      if (branch === undefined) s.branches.set(bk, [record])
      else branch.push(record)
      return s
    }
    case "VaultAccountEdited": {
      const { vaultId, vaultAccountId, at: _a, ...changes } = e.data
      const record = s.accounts.get(vaultAccountId)
      if (record !== undefined) s.accounts.set(vaultAccountId, { ...record, ...changes })
      else if (accountKey(vaultId, vaultAccountId) === null) s.defaultChanges = { ...s.defaultChanges, ...changes }
      return s
    }
    case "AssetAdded":
      s.address(e.data.blockchain, e.data.network, e.data.address)?.assets.add(e.data.assetId)
      return s
    default:
      return absurd(e)
  }
}
