// The draft of an EIP-7702 batch: one sender, calls to many recipients in the chain's coin and tokens, the fee
// paid by another address of the vault. Everything it sends is reserved at once, at the sender per asset; the
// batch fee at the fee payer (README "Fees").
import { findAsset, type AssetInfo, type FeePriority, type NetworkInfo } from "../chains/index.js"
import { batchFee } from "../chains/fees.js"
import type { AssetId, VaultId } from "../shared/ids.js"
import type { VaultAccounts } from "../vault-account/state.js"
import type { Portion, TxRequestDraft } from "./events.js"
import { perAsset } from "./spending.js"

export interface BatchInput {
  readonly vaultId: VaultId
  readonly network: NetworkInfo
  readonly sender: string
  readonly feePayer: string
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint; readonly asset: AssetInfo }>
  readonly feePriority: FeePriority
  readonly note: string | null
}

export const batchFeeOf = (n: NetworkInfo, recipients: BatchInput["recipients"], priority: FeePriority): bigint =>
  batchFee(
    n,
    recipients.map((r) => (r.asset.type === "TOKEN" ? "token" : "coin")),
    priority,
  )

export const batchDraftOf = (
  vault: { readonly accounts: VaultAccounts } | undefined,
  input: BatchInput,
  requestId: string,
  transactionId: string,
): Omit<TxRequestDraft, "approvalLevels"> => {
  const n = input.network
  const native = findAsset(n.nativeAssetId)!.id as AssetId
  const sender = vault?.accounts.address(n.blockchain, n.network, input.sender)
  const from = sender?.address ?? input.sender
  const payer = vault?.accounts.address(n.blockchain, n.network, input.feePayer)?.address ?? input.feePayer
  const recipients = input.recipients.map((r) => ({ address: r.address, amount: r.amount.toString(), assetId: r.asset.id as AssetId }))
  const fee = batchFeeOf(n, input.recipients, input.feePriority)
  const reservations: Array<Portion> = [...perAsset({ assetId: native, recipients })].map(([assetId, amount]) => ({
    address: from,
    assetId: assetId as AssetId,
    amount: amount.toString(),
  }))
  if (fee > 0n) reservations.push({ address: payer, assetId: native, amount: fee.toString() })
  return {
    requestId,
    transactionId,
    vaultId: input.vaultId,
    vaultAccountId: sender?.vaultAccountId ?? null,
    endpoint: "batch",
    blockchain: n.blockchain,
    network: n.network,
    // The batch's own asset is the gas asset; each call names what it sends.
    assetId: native,
    feeAssetId: native,
    sender: from,
    recipients,
    feePriority: input.feePriority,
    feeLimit: null,
    note: input.note,
    prepareStrategy: null,
    feePayer: payer,
    maxFee: fee.toString(),
    inputs: [],
    change: null,
    reservations,
  }
}
