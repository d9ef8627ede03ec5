// The documentation of the vault, vault account, address, asset and utility operations.
import type { OperationDoc } from "./types.js"

export const accountDocs: Readonly<Record<string, OperationDoc>> = {
  listVaults: {
    summary: "List vaults",
    description: "The vaults the API key may see (all of the workspace's unless the key is limited to some), in creation order.",
    tags: ["Vaults"],
  },
  listVaultsByNetworkType: {
    summary: "List vaults by network type",
    description: "The vaults of one network type (`main` or `test`) the API key may see.",
    tags: ["Vaults"],
  },
  createVaultAccount: {
    summary: "Create vault account",
    description:
      "Creates an account in the vault and records it in the event log. At 2026-03-20 the simulator refuses it (403) in a vault that is not backed up, as the service was observed to.",
    tags: ["Vault Accounts"],
    refusals: [{ status: 403, code: "vault_as_a_service_vault_recovery_not_initialized" }],
  },
  addAssetToVaultAccount: {
    summary: "Add asset to vault account",
    description:
      "Adds an asset to a vault account: with `label` a new address is derived for it, with `address` the asset is added to one of the account's addresses (exactly one of the two). On UTXO chains an address holds one asset (409 `address_holds_another_asset`).",
    tags: ["Vault Accounts"],
  },
  listSupportedAssets: {
    summary: "List supported assets",
    description: "The assets of the simulator's catalogue (its chains, their coins and tokens) on a network type.",
    tags: ["Assets"],
  },
  listVaultAccounts: {
    summary: "List vault accounts",
    description: "A vault's accounts with their balances, paged.",
    tags: ["Vault Accounts"],
  },
  getVaultAccount: {
    summary: "Get vault account details",
    description: "One vault account with its balances. A malformed id is 409 `invalid_id_format`, an unknown one 404.",
    tags: ["Vault Accounts"],
  },
  editVaultAccount: {
    summary: "Edit vault account",
    description: "Changes a vault account's name, colour, hidden and favourite flags; the edit is an event in the log.",
    tags: ["Vault Accounts"],
  },
  listVaultAccountAssets: {
    summary: "List vault account assets",
    description: "A vault account's assets and their available amounts, paged.",
    tags: ["Vault Accounts"],
  },
  listVaultAccountAddresses: {
    summary: "List vault account addresses",
    description: "A vault account's addresses with their balances per asset, paged.",
    tags: ["Vault Accounts"],
  },
  listVaultAccountTransactions: {
    summary: "List vault account transactions",
    description:
      "A vault account's transactions, newest first, paged; 10 a page by default, as the service was observed to answer (its documentation says 50).",
    tags: ["Vault Accounts", "Transactions"],
  },
  generateDepositAddress: {
    summary: "Generate deposit address",
    description:
      "Derives the vault's next address on the chain (deterministically from the workspace's seed) with its label; deposits to it are credited as the simulated chain mines them (`/_sim/deposits`).",
    tags: ["Addresses"],
  },
  validateAddress: {
    summary: "Validate address",
    description: "Whether an address is well formed on the chain and network (checksums included); writes nothing.",
    tags: ["Addresses"],
  },
  listAddressAssets: {
    summary: "List assets of an address",
    description: "The assets and balances of one of the vault's addresses on a chain.",
    tags: ["Addresses"],
  },
  listAssetAddresses: {
    summary: "List addresses holding an asset",
    description: "The vault's addresses holding an asset on a chain and network, with their balances.",
    tags: ["Addresses"],
  },
  listAddressAssetsAcrossChains: {
    summary: "List assets of an address across chains",
    description: "The assets and balances of one of the vault's addresses, on every chain it is used on (`blockchain` narrows it).",
    tags: ["Addresses"],
  },
  getAddressBalance: {
    summary: "Get address balance",
    description: "An address's assets and balances, paged.",
    tags: ["Addresses"],
  },
  listAssetsByNetworkType: {
    summary: "List assets by network type",
    description: "Balances per asset over the vaults of a network type the key may see, paged.",
    tags: ["Assets"],
  },
  listVaultAssets: {
    summary: "List vault assets",
    description: "The assets and balances of a vault: total, available, blocked (held by open requests) and allocated.",
    tags: ["Assets"],
  },
  listAssetVaults: {
    summary: "List vaults holding an asset",
    description: "The vaults of a network type holding an asset on a chain, with their balances.",
    tags: ["Assets"],
  },
  encodeXrpAddress: {
    summary: "Encode XRP X-address",
    description: "A classic XRP address and destination tag as an X-address; writes nothing.",
    tags: ["Utils"],
  },
  decodeXrpAddress: {
    summary: "Decode XRP X-address",
    description: "An X-address as its classic address and destination tag; writes nothing.",
    tags: ["Utils"],
  },
}
