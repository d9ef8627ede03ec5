// Commands on vault accounts. Derived addresses are computed by the handler (HD derivation) and carried in.
import type { AssetId, VaultAccountId } from "../shared/ids.js"
import type { SimInstant } from "../shared/sim-time.js"
import type { VaultAccountChanges } from "./events.js"

export interface AssetRef {
  readonly id: AssetId
  readonly blockchain: string
  readonly network: string
  readonly networkType: "main" | "test"
  readonly utxo: boolean
  readonly native: boolean
}

export interface NetworkRef {
  readonly blockchain: string
  readonly network: string
  readonly networkType: "main" | "test"
  readonly utxo: boolean
  readonly nativeAssetId: AssetId
}

export interface Derived {
  readonly address: string
  readonly derivationPath: string
  readonly index: number
}

export type VaultAccountCommand =
  | {
      readonly type: "CreateVaultAccount"
      readonly vaultAccountId: VaultAccountId
      readonly name: string
      readonly color: string
      readonly isHiddenInDashboard: boolean
      readonly now: SimInstant
    }
  | {
      readonly type: "AddAsset"
      readonly vaultAccountId: VaultAccountId
      readonly asset: AssetRef
      readonly nativeAssetId: AssetId
      /** `label`: derive when the account has no address on the chain yet; `address`: attach to one it holds. */
      readonly target:
        | { readonly _tag: "Label"; readonly label: string; readonly derived: Derived }
        | { readonly _tag: "Address"; readonly address: string }
      /** An asset the account already holds: nothing to do (2024-05-09, 2025-09-23), or refused (2026-03-20). */
      readonly whenHeld?: "accept" | "refuse"
      readonly now: SimInstant
    }
  | {
      readonly type: "EditVaultAccount"
      readonly vaultAccountId: VaultAccountId
      readonly changes: VaultAccountChanges
      readonly now: SimInstant
    }
  | {
      readonly type: "GenerateAddress"
      readonly vaultAccountId: VaultAccountId | null
      readonly network: NetworkRef
      readonly label: string
      readonly derived: Derived
      readonly now: SimInstant
    }
