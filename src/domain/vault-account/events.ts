// Events of vault accounts, their addresses and assets; written to the owning vault's stream.
import type { AssetId, VaultAccountId, VaultId } from "../shared/ids.js"
import { everyMember } from "../shared/members.js"
import type { SimInstant } from "../shared/sim-time.js"

export type AddressType = "deposit" | "change"

export interface AddressFacts {
  readonly vaultId: VaultId
  /** null: an address of the vault itself (endpoint #6 without vaultAccountId). */
  readonly vaultAccountId: VaultAccountId | null
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly derivationPath: string
  readonly change: 0 | 1
  readonly index: number
  readonly label: string
  readonly addressType: AddressType
  /** Assets attached on derivation: the native coin on UTXO chains (an address holds exactly that one). */
  readonly assetIds: ReadonlyArray<AssetId>
}

export type VaultAccountEvent =
  | {
      readonly type: "VaultAccountCreated"
      readonly data: {
        readonly vaultId: VaultId
        readonly vaultAccountId: VaultAccountId
        /** BIP44 account number within the vault's key tree (0 is the vault's own addresses). */
        readonly ordinal: number
        readonly name: string
        readonly color: string
        readonly isHiddenInDashboard: boolean
        readonly at: SimInstant
      }
    }
  | { readonly type: "AddressDerived"; readonly data: AddressFacts & { readonly at: SimInstant } }
  | {
      readonly type: "AssetAdded"
      readonly data: {
        readonly vaultId: VaultId
        readonly vaultAccountId: VaultAccountId
        readonly assetId: AssetId
        readonly blockchain: string
        readonly network: string
        readonly address: string
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "VaultAccountEdited"
      readonly data: { readonly vaultId: VaultId; readonly vaultAccountId: VaultAccountId; readonly at: SimInstant } & VaultAccountChanges
    }

/** What an edit may change; only the fields that change are recorded. */
export interface VaultAccountChanges {
  readonly name?: string
  readonly color?: string
  readonly isHiddenInDashboard?: boolean
  readonly isFavoriteInDashboard?: boolean
}

/** Every VaultAccountEvent type; one left out of the record fails to compile. */
export const vaultAccountEventTypes: ReadonlySet<string> = new Set(
  everyMember<VaultAccountEvent["type"]>({
    VaultAccountCreated: true,
    AddressDerived: true,
    AssetAdded: true,
    VaultAccountEdited: true,
  }),
)
