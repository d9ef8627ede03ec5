// The spec's operations, in the order they are mounted (the app mounts them; the audit reads through them).
import type { Operation } from "./operation.js"
import { addressOperations } from "./routes/addresses.js"
import { assetOperations } from "./routes/assets.js"
import { vaultAccountOperations } from "./routes/vault-accounts.js"
import { vaultAccountReadOperations } from "./routes/vault-account-reads.js"
import { xrpUtilOperations } from "./routes/xrp-utils.js"
import { transactionRequestOperations } from "./routes/transaction-requests.js"
import { sponsoredTransferOperations } from "./routes/sponsored-transfers.js"
import { transactionRequestReadOperations } from "./routes/transaction-request-reads.js"
import { singleTransferOperations } from "./routes/single-transfer.js"
import { vaultTransferOperations } from "./routes/vault-transfers.js"
import { approximateFeeOperations } from "./routes/approximate-fee.js"
import { transactionOperations } from "./routes/transactions.js"
import { utxoListOperations } from "./routes/utxos.js"
import { utxoTransferOperations } from "./routes/utxo-transfers.js"
import { multipleTransferOperations } from "./routes/multiple-transfer.js"
import { tronOperations } from "./routes/tron.js"
import { contractInteractionOperations } from "./routes/contract-interaction.js"
import { vaultOperations } from "./routes/vaults.js"

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
