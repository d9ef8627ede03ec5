// One operation's documentation in the OpenAPI documents: its summary, what it does in the simulator (and where the
// simulator decides what the contract leaves open), and the service's category it belongs to.
export const TAGS = [
  { name: "Vaults", description: "The vaults a key sees." },
  { name: "Vault Accounts", description: "Accounts inside a vault, their assets and addresses." },
  { name: "Addresses", description: "Deposit addresses, their validation and balances." },
  { name: "Assets", description: "Supported assets and balances per asset." },
  { name: "Transactions", description: "Transactions seen on the simulated chains." },
  {
    name: "Transaction Requests",
    description:
      "Withdrawals and other requests the vault signs. In the simulator a request answers `created`; the vault's approval policy (`/_sim/vaults/{vaultId}/approval-policy`, automatic unless set) decides whether it waits for approval; then it is broadcast and mined as the simulated chain mines.",
  },
  { name: "Fees", description: "Fee estimates (they write nothing)." },
  { name: "UTXOs", description: "Outputs of UTXO chains and transfers that name them." },
  { name: "Tron", description: "Tron resources: bandwidth, energy, staking and delegation." },
  { name: "Utils", description: "Address conversions." },
] as const

export type Tag = (typeof TAGS)[number]["name"]

export interface OperationDoc {
  readonly summary: string
  readonly description: string
  readonly tags: ReadonlyArray<Tag>
  /** Refusals the operation's handler gives of its own, beyond the pipeline's checks and the error table. */
  readonly refusals?: ReadonlyArray<{ readonly status: number; readonly code: string }>
}

/** What a request that reserves funds says of them, in each such operation's description. */
export const REQUEST_NOTE =
  "Blocks the amount and the maximum fee at the sender until the request ends; nothing is written when a check refuses it."
