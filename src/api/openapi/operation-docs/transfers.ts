// The documentation of the transaction, transaction request, fee, UTXO and tron operations.
import type { OperationDoc } from "./types.js"

const REQUEST = "Blocks the amount and the maximum fee at the sender until the request ends; nothing is written when a check refuses it."

export const transferDocs: Readonly<Record<string, OperationDoc>> = {
  listVaultTransactions: {
    summary: "List vault transactions",
    description: "A vault's transactions on the simulated chains (deposits, withdrawals, internal moves), newest first, paged.",
    tags: ["Transactions"],
  },
  getVaultTransaction: {
    summary: "Get transaction details",
    description: "One transaction of the vault in detail: its parties, amounts, fee and the block it was mined in.",
    tags: ["Transactions"],
  },
  createSingleTransferRequest: {
    summary: "Create single transfer request",
    description: `A withdrawal of a coin or token from one address (account-based chains). ${REQUEST} From 2025-09-23 \`note\` is required; \`maxFee\` "0" means no ceiling.`,
    tags: ["Transaction Requests"],
  },
  createUtxoTransactionRequest: {
    summary: "Create transaction request from vault",
    description: `A withdrawal from the whole vault to many recipients (UTXO chains; at 2025-09-23 also EVM, tron and solana coins from one listed sender). The simulator chooses the outputs. ${REQUEST}`,
    tags: ["Transaction Requests"],
  },
  createVaultTokenTransactionRequest: {
    summary: "Create token transaction request",
    description: `A token withdrawal from \`senderAddress\` (EVM, tron, solana) with \`contractAddress\` and \`maxFee\`. ${REQUEST}`,
    tags: ["Transaction Requests"],
  },
  createCoinTransactionRequest: {
    summary: "Create coin transaction request from address",
    description: `A coin withdrawal from one address (EVM chains). ${REQUEST}`,
    tags: ["Transaction Requests"],
  },
  createTokenTransactionRequest: {
    summary: "Create token transaction request from address",
    description: `A token withdrawal from one address (EVM chains). ${REQUEST}`,
    tags: ["Transaction Requests"],
  },
  createFeelessTransactionRequest: {
    summary: "Create TRX transaction request",
    description: `A TRX withdrawal on tron, paid in bandwidth where the sender has it. ${REQUEST}`,
    tags: ["Transaction Requests", "Tron"],
  },
  createFeelessTokenTransactionRequest: {
    summary: "Create TRC-20 transaction request",
    description: `A TRC-20 token withdrawal on tron with its \`feeLimit\`. ${REQUEST}`,
    tags: ["Transaction Requests", "Tron"],
  },
  getTransactionRequest: {
    summary: "Get transaction request details",
    description:
      "One transaction request and its status (created, await-approval, broadcasted, mined, success, rejected, failed, …); 403 for a request in a vault the key may not see.",
    tags: ["Transaction Requests"],
    refusals: [{ status: 403, code: "api_key_not_allowed_for_wallet" }],
  },
  getTransactionRequestV2: {
    summary: "Get transaction request details",
    description:
      "One transaction request and its status, on the path 2026-03-20 uses (`amountUnit`, `note`); 403 for a request in a vault the key may not see.",
    tags: ["Transaction Requests"],
    refusals: [{ status: 403, code: "api_key_not_allowed_for_wallet" }],
  },
  createGasSponsorshipTransferRequest: {
    summary: "Create gas sponsorship transfer request",
    description: `A coin or token transfer whose gas another address of the vault (\`feePayer\`) pays (EVM chains). ${REQUEST}`,
    tags: ["Transaction Requests"],
  },
  createBatchTransactionRequest: {
    summary: "Create batch transaction request",
    description: `An EIP-7702 batch: one sender, calls in the chain's coin and tokens to many recipients, gas paid by \`feePayer\`, all or nothing. ${REQUEST}`,
    tags: ["Transaction Requests"],
  },
  estimateApproximateFee: {
    summary: "Estimate approximate fee",
    description:
      "The fee a transfer would pay if mined now, and the most it may cost, from the simulated chain's current fee state; writes nothing.",
    tags: ["Fees"],
  },
  listUtxos: {
    summary: "List UTXOs",
    description:
      "A vault's outputs on UTXO chains, unspent by default (`isSpent`, `address`, `assetId`, `vaultAccountId`), paged by `utxoId`.",
    tags: ["UTXOs"],
  },
  createUtxoTransfer: {
    summary: "Create UTXO transfer",
    description: `A transfer from named outputs (\`senders[].utxoId\`), change to \`changeData\` or \`feePayer\`, \`gross\` and \`maxFee\`. The outputs are reserved until the request ends; the fee is known exactly, so \`maxFee\` below it is refused at creation (400 \`MAX_FEE_EXCEEDED\`). ${REQUEST}`,
    tags: ["UTXOs", "Transaction Requests"],
  },
  validateUtxoTransfer: {
    summary: "Validate UTXO transfer",
    description: "utxo-transfer's dry run: the same checks and the preview with its fee; nothing reserved or written.",
    tags: ["UTXOs"],
  },
  createMultipleTransfer: {
    summary: "Create multiple transfer",
    description: `A UTXO withdrawal from one vault account to many recipients, its outputs chosen by \`prepareStrategy\` (either spelling the contract shows), \`maxFee\`, \`gross\`. ${REQUEST}`,
    tags: ["UTXOs", "Transaction Requests"],
  },
  manageTronResource: {
    summary: "Manage tron resource",
    description:
      "Freezes, unfreezes, withdraws, delegates or undelegates TRX for bandwidth or energy: a transaction request like a withdrawal (approval, broadcast, mining, fee).",
    tags: ["Tron", "Transaction Requests"],
  },
  getTronResourceOverview: {
    summary: "Get tron resource overview",
    description:
      "A tron address's TRX, bandwidth and energy (limits, used, available, staked, delegated), pending unfreezes and delegations; resources regenerate with the simulated clock.",
    tags: ["Tron"],
  },
  createContractInteractionRequest: {
    summary: "Create contract interaction request",
    description:
      "A TRC-20 `approve` (the simulator always grants `feePayer` the unlimited allowance) or `transfer-from` (the fee payer moves the holder's tokens); the fee payer pays. A transaction request like a withdrawal.",
    tags: ["Transaction Requests", "Tron"],
  },
}
