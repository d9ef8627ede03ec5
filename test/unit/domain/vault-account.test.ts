// Vault accounts, addresses and assets (a part of the vault aggregate): the spec's rules for adding assets and
// generating addresses, with UTXO chains' native coin coming with the address.
import { describe, it } from "vitest"
import type { AssetId, VaultAccountId, VaultId } from "../../../src/domain/shared/ids.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import type { AssetRef, NetworkRef } from "../../../src/domain/vault-account/index.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(vaultDecider)
const at = simInstant(1_000)
const vaultId = "aaaaaaaaaaaaaaaaaaaaaaaa" as VaultId
const acct = "bbbbbbbbbbbbbbbbbbbbbbbb" as VaultAccountId
const ETH = "eth" as AssetId
const USDC = "usdc" as AssetId
const BTC = "btc" as AssetId
const ethAddress = "0x1111111111111111111111111111111111111111"
const btcAddress = "tb1qexampleaddress"

const vault = (type: "test" | "main" = "test"): VaultAggregateEvent => ({
  type: "VaultCreated",
  data: { vaultId, name: "v", type, color: "#000000", backuped: false, at },
})
const account: VaultAggregateEvent = {
  type: "VaultAccountCreated",
  data: { vaultId, vaultAccountId: acct, ordinal: 1, name: "a", color: "#000000", isHiddenInDashboard: false, at },
}
const derived = (
  address: string,
  blockchain: string,
  network: string,
  assetIds: ReadonlyArray<AssetId>,
  vaultAccountId: VaultAccountId | null = acct,
  label = "x",
): VaultAggregateEvent => ({
  type: "AddressDerived",
  data: {
    vaultId,
    vaultAccountId,
    blockchain,
    network,
    address,
    derivationPath: "m/44'/60'/1'/0/0",
    change: 0,
    index: 0,
    label,
    addressType: "deposit",
    assetIds,
    at,
  },
})
const added = (assetId: AssetId, address = ethAddress): VaultAggregateEvent => ({
  type: "AssetAdded",
  data: { vaultId, vaultAccountId: acct, assetId, blockchain: "ethereum", network: "sepolia", address, at },
})
const asset = (id: AssetId, over: Partial<AssetRef> = {}): AssetRef => ({
  id,
  blockchain: "ethereum",
  network: "sepolia",
  networkType: "test",
  utxo: false,
  native: id === ETH,
  ...over,
})
const btcAsset = asset(BTC, { blockchain: "bitcoin", network: "testnet", utxo: true, native: true })
const derivation = (address: string) => ({ address, derivationPath: "m/44'/60'/1'/0/0", index: 0 })
const label = (address: string) => ({ _tag: "Label" as const, label: "x", derived: derivation(address) })
const ethNetwork: NetworkRef = { blockchain: "ethereum", network: "sepolia", networkType: "test", utxo: false, nativeAssetId: ETH }
const btcNetwork: NetworkRef = { blockchain: "bitcoin", network: "testnet", networkType: "test", utxo: true, nativeAssetId: BTC }

describe("vault accounts", () => {
  describe("CreateVaultAccount", () => {
    it("creates an account with the next ordinal of the vault's key tree", () => {
      spec
        .given([vault()])
        .when({ type: "CreateVaultAccount", vaultAccountId: acct, name: "a", color: "#000000", isHiddenInDashboard: false, now: at })
        .then([account])
    })
    it("refuses an account id the vault holds", () => {
      spec
        .given([vault(), account])
        .when({ type: "CreateVaultAccount", vaultAccountId: acct, name: "a", color: "#000000", isHiddenInDashboard: false, now: at })
        .thenFails({
          _tag: "VaultAccountAlreadyExists",
          vaultAccountId: acct,
        })
    })
    it("refuses a vault that does not exist", () => {
      spec
        .given([])
        .when({ type: "CreateVaultAccount", vaultAccountId: acct, name: "a", color: "#000000", isHiddenInDashboard: false, now: at })
        .thenFails({ _tag: "VaultNotFound" })
    })
  })
  describe("the default account (named by the vault's id)", () => {
    const own = vaultId as string as VaultAccountId
    const ownAdded = (assetId: AssetId): VaultAggregateEvent => ({
      type: "AssetAdded",
      data: { vaultId, vaultAccountId: own, assetId, blockchain: "ethereum", network: "sepolia", address: ethAddress, at },
    })
    it("AddAsset by label derives an address of the vault itself, holding the coin from derivation, and adds the token", () => {
      spec
        .given([vault()])
        .when({ type: "AddAsset", vaultAccountId: own, asset: asset(USDC), nativeAssetId: ETH, target: label(ethAddress), now: at })
        .then([derived(ethAddress, "ethereum", "sepolia", [ETH], null), ownAdded(USDC)])
    })
    it("AddAsset by label of the coin: the derived own address holds it, no AssetAdded", () => {
      spec
        .given([vault()])
        .when({ type: "AddAsset", vaultAccountId: own, asset: asset(ETH), nativeAssetId: ETH, target: label(ethAddress), now: at })
        .then([derived(ethAddress, "ethereum", "sepolia", [ETH], null)])
    })
    it("AddAsset by address: one of the vault's own addresses takes the token", () => {
      spec
        .given([vault(), derived(ethAddress, "ethereum", "sepolia", [ETH], null)])
        .when({
          type: "AddAsset",
          vaultAccountId: own,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: { _tag: "Address", address: ethAddress },
          now: at,
        })
        .then([ownAdded(USDC)])
    })
    it("AddAsset by address refuses an address of a created account", () => {
      spec
        .given([vault(), account, derived(ethAddress, "ethereum", "sepolia", [])])
        .when({
          type: "AddAsset",
          vaultAccountId: own,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: { _tag: "Address", address: ethAddress },
          now: at,
        })
        .thenFails({ _tag: "AddressNotHeld", address: ethAddress, blockchain: "ethereum", network: "sepolia" })
    })
    it("EditVaultAccount records what changes from its profile (the default name, the vault's colour), then from the edits", () => {
      const edited: VaultAggregateEvent = { type: "VaultAccountEdited", data: { vaultId, vaultAccountId: own, name: "Treasury", at } }
      spec
        .given([vault()])
        .when({ type: "EditVaultAccount", vaultAccountId: own, changes: { name: "Treasury", color: "#000000" }, now: at })
        .then([edited])
      spec
        .given([vault(), edited])
        .when({ type: "EditVaultAccount", vaultAccountId: own, changes: { name: "Treasury" }, now: at })
        .then([])
      spec
        .given([vault()])
        .when({ type: "EditVaultAccount", vaultAccountId: own, changes: { name: "Default" }, now: at })
        .then([])
    })
  })
  describe("AddAsset", () => {
    it("on an account with no address on the chain: derives one and adds the asset to it", () => {
      spec
        .given([vault(), account])
        .when({ type: "AddAsset", vaultAccountId: acct, asset: asset(ETH), nativeAssetId: ETH, target: label(ethAddress), now: at })
        .then([derived(ethAddress, "ethereum", "sepolia", []), added(ETH)])
    })
    it("on a UTXO chain: the derived address comes with the coin, no AssetAdded", () => {
      spec
        .given([vault(), account])
        .when({ type: "AddAsset", vaultAccountId: acct, asset: btcAsset, nativeAssetId: BTC, target: label(btcAddress), now: at })
        .then([derived(btcAddress, "bitcoin", "testnet", [BTC])])
    })
    it("by label on an account that has an address on the chain: the asset goes to that address", () => {
      spec
        .given([vault(), account, derived(ethAddress, "ethereum", "sepolia", []), added(ETH)])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: label("0x2222222222222222222222222222222222222222"),
          now: at,
        })
        .then([added(USDC)])
    })
    it("by label, an asset the account holds already changes nothing", () => {
      spec
        .given([vault(), account, derived(ethAddress, "ethereum", "sepolia", []), added(ETH)])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(ETH),
          nativeAssetId: ETH,
          target: label("0x2222222222222222222222222222222222222222"),
          now: at,
        })
        .then([])
    })
    it("to a given address of the account", () => {
      spec
        .given([vault(), account, derived(ethAddress, "ethereum", "sepolia", [])])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: { _tag: "Address", address: ethAddress.toUpperCase().replace("0X", "0x") },
          now: at,
        })
        .then([added(USDC)])
    })
    it("to a given address that holds the asset already: nothing changes", () => {
      spec
        .given([vault(), account, derived(ethAddress, "ethereum", "sepolia", []), added(USDC)])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: { _tag: "Address", address: ethAddress },
          now: at,
        })
        .then([])
    })
    it("asked to refuse (2026-03-20), refuses an asset the account holds already, by label or by address", () => {
      const given = [vault(), account, derived(ethAddress, "ethereum", "sepolia", []), added(ETH)]
      const refused = { _tag: "AssetAlreadyAdded" as const, vaultAccountId: acct, assetId: ETH, address: ethAddress }
      spec
        .given(given)
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(ETH),
          nativeAssetId: ETH,
          target: label("0x2222222222222222222222222222222222222222"),
          whenHeld: "refuse",
          now: at,
        })
        .thenFails(refused)
      spec
        .given(given)
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(ETH),
          nativeAssetId: ETH,
          target: { _tag: "Address", address: ethAddress },
          whenHeld: "refuse",
          now: at,
        })
        .thenFails(refused)
    })
    it("asked to refuse, refuses a UTXO coin the account's address holds already, and still adds a new asset", () => {
      spec
        .given([vault(), account, derived(btcAddress, "bitcoin", "testnet", [BTC])])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: btcAsset,
          nativeAssetId: BTC,
          target: label("tb1qother"),
          whenHeld: "refuse",
          now: at,
        })
        .thenFails({ _tag: "AssetAlreadyAdded", vaultAccountId: acct, assetId: BTC, address: btcAddress })
      spec
        .given([vault(), account, derived(ethAddress, "ethereum", "sepolia", []), added(ETH)])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: label("0x2222222222222222222222222222222222222222"),
          whenHeld: "refuse",
          now: at,
        })
        .then([added(USDC)])
    })
    it("refuses an address the account does not hold", () => {
      spec
        .given([vault(), account])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: asset(USDC),
          nativeAssetId: ETH,
          target: { _tag: "Address", address: ethAddress },
          now: at,
        })
        .thenFails({
          _tag: "AddressNotHeld",
          address: ethAddress,
        })
    })
    it("refuses a second asset on a UTXO address (it holds exactly its coin)", () => {
      const other = asset("btc-other" as AssetId, { blockchain: "bitcoin", network: "testnet", utxo: true, native: false })
      spec
        .given([vault(), account, derived(btcAddress, "bitcoin", "testnet", [BTC])])
        .when({
          type: "AddAsset",
          vaultAccountId: acct,
          asset: other,
          nativeAssetId: BTC,
          target: { _tag: "Address", address: btcAddress },
          now: at,
        })
        .thenFails({ _tag: "AddressHoldsAnotherAsset", address: btcAddress })
    })
    it("refuses an asset of the other network type than the vault's", () => {
      spec
        .given([vault("main"), account])
        .when({ type: "AddAsset", vaultAccountId: acct, asset: asset(ETH), nativeAssetId: ETH, target: label(ethAddress), now: at })
        .thenFails({
          _tag: "NetworkNotAllowedForVault",
          networkType: "test",
        })
    })
    it("refuses an account the vault does not hold", () => {
      spec
        .given([vault()])
        .when({ type: "AddAsset", vaultAccountId: acct, asset: asset(ETH), nativeAssetId: ETH, target: label(ethAddress), now: at })
        .thenFails({
          _tag: "VaultAccountNotFound",
          vaultAccountId: acct,
        })
    })
  })
  describe("GenerateAddress", () => {
    it("derives a deposit address of an account with no asset on an account-based chain", () => {
      spec
        .given([vault(), account])
        .when({ type: "GenerateAddress", vaultAccountId: acct, network: ethNetwork, label: "x", derived: derivation(ethAddress), now: at })
        .then([derived(ethAddress, "ethereum", "sepolia", [])])
    })
    it("derives an address of the vault itself, which holds the native coin from the start", () => {
      spec
        .given([vault()])
        .when({ type: "GenerateAddress", vaultAccountId: null, network: ethNetwork, label: "x", derived: derivation(ethAddress), now: at })
        .then([derived(ethAddress, "ethereum", "sepolia", [ETH], null)])
    })
    it("on a UTXO chain the address holds the coin", () => {
      spec
        .given([vault(), account])
        .when({ type: "GenerateAddress", vaultAccountId: acct, network: btcNetwork, label: "x", derived: derivation(btcAddress), now: at })
        .then([derived(btcAddress, "bitcoin", "testnet", [BTC])])
    })
    it("refuses an account the vault does not hold", () => {
      spec
        .given([vault()])
        .when({ type: "GenerateAddress", vaultAccountId: acct, network: ethNetwork, label: "x", derived: derivation(ethAddress), now: at })
        .thenFails({
          _tag: "VaultAccountNotFound",
          vaultAccountId: acct,
        })
    })
    it("refuses a network of the other type than the vault's", () => {
      spec
        .given([vault("main")])
        .when({ type: "GenerateAddress", vaultAccountId: null, network: ethNetwork, label: "x", derived: derivation(ethAddress), now: at })
        .thenFails({
          _tag: "NetworkNotAllowedForVault",
          networkType: "test",
        })
    })
  })

  describe("EditVaultAccount", () => {
    const edited = (changes: Record<string, unknown>): VaultAggregateEvent => ({
      type: "VaultAccountEdited",
      data: { vaultId, vaultAccountId: acct, ...changes, at },
    })
    it("records only the fields that change", () => {
      spec
        .given([vault(), account])
        .when({
          type: "EditVaultAccount",
          vaultAccountId: acct,
          changes: { name: "b", color: "#000000", isFavoriteInDashboard: true },
          now: at,
        })
        .then([edited({ name: "b", isFavoriteInDashboard: true })])
    })
    it("records nothing when nothing changes, after earlier edits too", () => {
      spec
        .given([vault(), account, edited({ name: "b", isHiddenInDashboard: true })])
        .when({
          type: "EditVaultAccount",
          vaultAccountId: acct,
          changes: { name: "b", isHiddenInDashboard: true, isFavoriteInDashboard: false },
          now: at,
        })
        .then([])
    })
    it("refuses an account the vault does not hold", () => {
      spec
        .given([vault()])
        .when({ type: "EditVaultAccount", vaultAccountId: acct, changes: { name: "b" }, now: at })
        .thenFails({ _tag: "VaultAccountNotFound", vaultAccountId: acct })
    })
  })
})
