// Rules of a new transaction request, decided before the vault checks the funds: the fee cap, coin selection
// over the vault's unspent outputs, and the draft with its reservations (README "Fees", "UTXO requests").
import { findAsset, type AssetInfo, type FeePriority, type NetworkInfo } from "../chains/index.js"
import { batchFee, transferFee, tronCost, utxoFee } from "../chains/fees.js"
import type { AssetId, VaultId } from "../shared/ids.js"
import type { Ledger } from "../ledger/state.js"
import { tronTxKind, type TronOperation } from "../chains/tron-operation.js"
import type { VaultAccounts } from "../vault-account/state.js"
import type { Portion, RequestEndpoint, SpentOutput, TxRequestDraft } from "./events.js"

export interface CreateRequestInput {
  readonly vaultId: VaultId
  readonly endpoint: RequestEndpoint
  readonly network: NetworkInfo
  readonly asset: AssetInfo
  readonly sender: string | null
  /** Another address of the vault on the same chain that pays the network fee (account-based chains). */
  readonly feePayer?: string
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>
  readonly feePriority: FeePriority | null
  readonly feeLimit: bigint | null
  readonly note: string | null
  readonly prepareStrategy: "minimize-dust" | "optimize-size" | null
  /** The client's fee ceiling (`maxFee`), native base units. */
  readonly feeCeiling?: bigint | null
  /** Tron: a staking or TRC-20 contract operation (manage-resource, contract-interaction). */
  readonly operation?: TronOperation
}

/**
 * The most the network fee may cost (reserved at creation, README "Fees"). On EVM chains a transfer whose fee
 * another address pays is a one-call EIP-7702 batch, and costs what a batch of one call costs. On tron what the
 * transaction does (a transfer, a staking operation, a TRC-20 call) sets the resources it may burn.
 */
export const maxFeeOf = (
  n: NetworkInfo,
  asset: AssetInfo,
  priority: FeePriority,
  feeLimit: bigint | null,
  sponsored = false,
  operation?: TronOperation,
): bigint => {
  if (sponsored && n.fees._tag === "EvmGas") return batchFee(n, [asset.type === "TOKEN" ? "token" : "coin"], priority)
  const tron = tronCost(n, tronTxKind(asset.type !== "TOKEN", operation))
  if (tron !== undefined) return feeLimit !== null && feeLimit < tron.maxBurn ? feeLimit : tron.maxBurn
  return transferFee(n, asset.type === "TOKEN" ? "token" : "coin", priority)
}

const sumOf = (xs: ReadonlyArray<{ readonly amount: bigint }>) => xs.reduce((a, x) => a + x.amount, 0n)

type Selection = { inputs: Array<SpentOutput>; fee: bigint; change: bigint } | undefined

/** Coin selection over the vault's unspent outputs: smallest first (minimize-dust) or largest first (optimize-size). */
export const selectCoins = (ledger: Ledger, input: CreateRequestInput, total: bigint, priority: FeePriority): Selection => {
  const n = input.network
  const utxos = [...ledger.utxos.entries()]
    .filter(([key, u]) => u.blockchain === n.blockchain && u.network === n.network && !ledger.reservedOutputs.has(key))
    .map(([, u]) => u)
    .sort(
      (a, b) =>
        (input.prepareStrategy === "optimize-size" ? Number(b.amount - a.amount) : Number(a.amount - b.amount)) ||
        (a.transactionId < b.transactionId ? -1 : 1),
    )
  const chosen: Array<SpentOutput> = []
  let sum = 0n
  for (const u of utxos) {
    chosen.push({ transactionId: u.transactionId, vout: u.vout, address: u.address, amount: u.amount.toString() })
    sum += u.amount
    const feeWithChange = utxoFee(n, chosen.length, input.recipients.length + 1, priority)
    if (sum === total + utxoFee(n, chosen.length, input.recipients.length, priority))
      return { inputs: chosen, fee: sum - total, change: 0n }
    if (sum >= total + feeWithChange) return { inputs: chosen, fee: feeWithChange, change: sum - total - feeWithChange }
  }
  return undefined
}

/**
 * The draft of a request: what it sends, the most its fee may cost, the outputs it spends (UTXO) and what it
 * holds back until mined. The vault decider then checks it against the available funds.
 */
export const draftOf = (
  vault: { readonly accounts: VaultAccounts; readonly ledger: Ledger } | undefined,
  input: CreateRequestInput,
  requestId: string,
  transactionId: string,
  change: string | null,
): Omit<TxRequestDraft, "approvalLevels"> => {
  const n = input.network
  const native = findAsset(n.nativeAssetId)!
  const priority = input.feePriority ?? "standard"
  const total = sumOf(input.recipients)
  const base = {
    requestId,
    transactionId,
    vaultId: input.vaultId,
    vaultAccountId: null as string | null,
    endpoint: input.endpoint,
    blockchain: n.blockchain,
    network: n.network,
    assetId: input.asset.id as AssetId,
    feeAssetId: native.id as AssetId,
    sender: input.sender,
    recipients: input.recipients.map((r) => ({ address: r.address, amount: r.amount.toString() })),
    feePriority: input.feePriority,
    feeLimit: input.feeLimit === null ? null : input.feeLimit.toString(),
    note: input.note,
    prepareStrategy: input.prepareStrategy,
    ...(input.feeCeiling !== undefined && input.feeCeiling !== null ? { feeCeiling: input.feeCeiling.toString() } : {}),
    ...(input.operation !== undefined ? { operation: input.operation } : {}),
  }
  if (n.family === "utxo") {
    const sel = vault === undefined ? undefined : selectCoins(vault.ledger, input, total, priority)
    // Nothing selectable: reserve the whole amount at no address so the decider refuses it as insufficient.
    if (sel === undefined)
      return {
        ...base,
        maxFee: "0",
        inputs: [],
        change: null,
        reservations: [{ address: "", assetId: native.id as AssetId, amount: (total + 1n).toString() }],
      }
    const reservations: Array<Portion> = sel.inputs.map((i) => ({ address: i.address, assetId: native.id as AssetId, amount: i.amount }))
    return {
      ...base,
      maxFee: sel.fee.toString(),
      inputs: sel.inputs,
      change: sel.change > 0n && change !== null ? { address: change, amount: sel.change.toString() } : null,
      reservations,
    }
  }
  const sender = input.sender!
  const account = vault?.accounts.address(n.blockchain, n.network, sender)
  const from = account?.address ?? sender
  const payer =
    input.feePayer === undefined ? undefined : (vault?.accounts.address(n.blockchain, n.network, input.feePayer)?.address ?? input.feePayer)
  const maxFee = maxFeeOf(n, input.asset, priority, input.feeLimit, payer !== undefined, input.operation)
  // A freeze holds back the TRX it stakes beside the fee (the address keeps it, but cannot spend it).
  const frozen = input.operation?.type === "freeze" ? BigInt(input.operation.amount) : 0n
  // Nothing to hold at the sender for a call that moves none of its tokens (a TRC-20 approve).
  const reservations: Array<Portion> =
    total > 0n || payer === undefined ? [{ address: from, assetId: input.asset.id as AssetId, amount: total.toString() }] : []
  // The fee is held where it will be paid: at the fee payer when there is one, else beside the amount at the sender.
  if (maxFee > 0n) reservations.push({ address: payer ?? from, assetId: native.id as AssetId, amount: maxFee.toString() })
  const merged =
    input.asset.id === native.id && payer === undefined
      ? [{ address: from, assetId: native.id as AssetId, amount: (total + frozen + maxFee).toString() }]
      : reservations
  return {
    ...base,
    vaultAccountId: account?.vaultAccountId ?? null,
    sender: from,
    ...(payer !== undefined ? { feePayer: payer } : {}),
    maxFee: maxFee.toString(),
    inputs: [],
    change: null,
    reservations: merged,
  }
}
