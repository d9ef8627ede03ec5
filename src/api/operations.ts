// The spec's operations, in the order they are mounted (the app mounts them; the audit reads through them).
import type { Operation } from "./operation.js"
import { addressOperations } from "./endpoints/addresses.js"
import { assetOperations } from "./endpoints/assets.js"
import { vaultAccountOperations } from "./endpoints/vault-accounts.js"
import { vaultAccountReadOperations } from "./endpoints/vault-account-reads.js"
import { xrpUtilOperations } from "./endpoints/xrp-utils.js"
import { transactionRequestOperations } from "./endpoints/transaction-requests.js"
import { sponsoredTransferOperations } from "./endpoints/sponsored-transfers.js"
import { transactionRequestReadOperations } from "./endpoints/transaction-request-reads.js"
import { singleTransferOperations } from "./endpoints/single-transfer.js"
import { vaultTransferOperations } from "./endpoints/vault-transfers.js"
import { approximateFeeOperations } from "./endpoints/approximate-fee.js"
import { transactionOperations } from "./endpoints/transactions.js"
import { utxoListOperations } from "./endpoints/utxos.js"
import { utxoTransferOperations } from "./endpoints/utxo-transfers.js"
import { multipleTransferOperations } from "./endpoints/multiple-transfer.js"
import { tronOperations } from "./endpoints/tron.js"
import { contractInteractionOperations } from "./endpoints/contract-interaction.js"
import { vaultOperations } from "./endpoints/vaults.js"

// One group a line, so that groups added side by side merge.
export const defaultOperations: ReadonlyArray<Operation> = [
  ...vaultOperations,
  ...vaultAccountOperations,
  ...vaultAccountReadOperations,
  ...addressOperations,
  ...assetOperations,
  ...transactionOperations,
  ...singleTransferOperations,
  ...vaultTransferOperations,
  ...transactionRequestOperations,
  ...transactionRequestReadOperations,
  ...sponsoredTransferOperations,
  ...approximateFeeOperations,
  ...utxoListOperations,
  ...utxoTransferOperations,
  ...multipleTransferOperations,
  ...tronOperations,
  ...contractInteractionOperations,
  ...xrpUtilOperations,
]
