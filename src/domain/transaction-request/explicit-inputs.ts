// A UTXO transfer that names its inputs (utxo-transfer and its dry run): the inputs must be the vault's, unspent and
// held by no open request; the fee is the chain's rate times the transaction's size, paid by the inputs, by a fee
// payer's extra input, or out of the recipients' amounts (gross); the change goes where the caller says.
import type { FeePriority, NetworkInfo } from "../chains/index.js"
import { utxoFee, utxoVbytes } from "../chains/fees.js"
import type { AssetId, VaultId } from "../shared/ids.js"
import type { Ledger, Utxo } from "../ledger/state.js"
import { accountKey, type VaultAccounts } from "../vault-account/state.js"
import type { Portion, SpentOutput, TxRequestDraft } from "./events.js"
import type { TxRequestError } from "./state.js"

/** Where the change goes: an address of the vault, an account of the vault, or a fee payer that adds an input. */
export type ChangeTarget =
  | { readonly kind: "default" }
  | { readonly kind: "address"; readonly address: string }
  | { readonly kind: "account"; readonly vaultAccountId: string }
  | { readonly kind: "feePayer"; readonly address: string }

export interface UtxoTransferRequest {
  readonly vaultId: VaultId
  readonly network: NetworkInfo
  /** The outputs spent, `transactionId:vout`, in the caller's order. */
  readonly utxoIds: ReadonlyArray<string>
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>
  readonly feePriority: FeePriority
  /** The caller's ceiling on the fee (MAX_FEE_EXCEEDED above it); null: none. */
  readonly maxFee: bigint | null
  /** The fee comes out of the recipients' amounts. */
  readonly gross: boolean
  readonly change: ChangeTarget
  readonly note: string | null
}

export interface UtxoTransferPlan {
  readonly inputs: ReadonlyArray<SpentOutput & { readonly vaultAccountId: string | null }>
  /** What each recipient receives (its amount less its share of the fee when gross). */
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>
  readonly change: { readonly address: string; readonly amount: bigint } | null
  readonly fee: bigint
  readonly vbytes: bigint
}

export type VaultState = { readonly accounts: VaultAccounts; readonly ledger: Ledger }

/** An output with its outpoint, the key the ledger holds it under. */
export interface Keyed {
  readonly key: string
  readonly u: Utxo
}

/**
 * Outputs by amount (sign 1: smallest first, -1: largest first), ties by outpoint: deterministic. The outpoints are
 * the ledger's keys, so a tie costs a comparison of two strings already there rather than two new ones.
 */
export const byAmount = (xs: Array<Keyed>, sign: 1 | -1): Array<Utxo> =>
  xs.sort((a, b) => (a.u.amount < b.u.amount ? -sign : a.u.amount > b.u.amount ? sign : a.key < b.key ? -1 : 1)).map((x) => x.u)

/** The named outputs, each the vault's, on the transfer's chain, unspent and not held by an open request. */
const resolveInputs = (v: VaultState, r: UtxoTransferRequest): Array<Utxo> | TxRequestError => {
  const out: Array<Utxo> = []
  for (const id of r.utxoIds) {
    const u = v.ledger.utxos.get(id)
    if (u === undefined) return v.ledger.spentOutputs.has(id) ? { _tag: "UtxoSpent", utxoId: id } : { _tag: "UtxoNotFound", utxoId: id }
    if (u.blockchain !== r.network.blockchain || u.network !== r.network.network) return { _tag: "UtxoNotFound", utxoId: id }
    if (v.ledger.reservedOutputs.has(id)) return { _tag: "UtxoReserved", utxoId: id }
    out.push(u)
  }
  return out
}

/** The change address when the caller names none, an address or an account: derived only when the account has none. */
const changeAddressOf = (v: VaultState, r: UtxoTransferRequest, first: Utxo, derived: string | null): string | TxRequestError => {
  const n = r.network
  const c = r.change
  switch (c.kind) {
    case "default":
      return first.address
    case "feePayer":
    case "address": {
      const a = v.accounts.address(n.blockchain, n.network, c.address)
      if (a === undefined || !a.assets.has(n.nativeAssetId as AssetId))
        return { _tag: c.kind === "feePayer" ? "FeePayerNotInVault" : "ChangeAddressNotInVault", address: c.address }
      return a.address
    }
    case "account": {
      const own = accountKey(r.vaultId, c.vaultAccountId)
      if (!v.accounts.has(own)) return { _tag: "ChangeAccountNotFound", vaultAccountId: c.vaultAccountId }
      const held = v.accounts.addressesOf(own, n.blockchain, n.network).find((a) => a.assets.has(n.nativeAssetId as AssetId))
      return held?.address ?? derived ?? { _tag: "ChangeAccountNotFound", vaultAccountId: c.vaultAccountId }
    }
  }
}

/** The account whose change needs a new address (it has none on the chain): null for the vault's own, undefined when none is needed. */
export const accountNeedingChangeAddress = (
  v: VaultState,
  r: Pick<UtxoTransferRequest, "change" | "network" | "vaultId">,
): { readonly vaultAccountId: string | null } | undefined => {
  const c = r.change
  if (c.kind !== "account") return undefined
  const n = r.network
  const own = accountKey(r.vaultId, c.vaultAccountId)
  if (!v.accounts.has(own)) return undefined
  const held = v.accounts.addressesOf(own, n.blockchain, n.network).length
  return held === 0 ? { vaultAccountId: own } : undefined
}

/** Splits the fee over the recipients (equal shares, the remainder one base unit each from the first). */
const grossOf = (recipients: UtxoTransferRequest["recipients"], fee: bigint): Array<{ address: string; amount: bigint }> | number => {
  const count = BigInt(recipients.length)
  const share = fee / count
  const rest = fee % count
  const out: Array<{ address: string; amount: bigint }> = []
  for (const [i, x] of recipients.entries()) {
    const net = x.amount - share - (BigInt(i) < rest ? 1n : 0n)
    if (net <= 0n) return i
    out.push({ address: x.address, amount: net })
  }
  return out
}

/**
 * The plan of an explicit-input transfer: its inputs (the fee payer's added smallest first until they cover the
 * fee), what each recipient gets, the change and the fee. Pure: the decider and the dry run call it on the same state.
 */
export const planUtxoTransfer = (
  v: VaultState,
  r: UtxoTransferRequest,
  derivedChange: string | null = null,
): UtxoTransferPlan | TxRequestError => {
  const named = resolveInputs(v, r)
  if (!Array.isArray(named)) return named
  const n = r.network
  const target = changeAddressOf(v, r, named[0]!, derivedChange)
  if (typeof target !== "string") return target
  let extra: Array<Utxo> = []
  if (r.change.kind === "feePayer") {
    const taken = new Set(r.utxoIds)
    const payer: Array<Keyed> = []
    for (const [key, u] of v.ledger.utxos)
      if (
        u.blockchain === n.blockchain &&
        u.network === n.network &&
        u.address === target &&
        !taken.has(key) &&
        !v.ledger.reservedOutputs.has(key)
      )
        payer.push({ key, u })
    extra = byAmount(payer, 1)
  }
  const inputs = [...named]
  const need = coverage(r)
  let sum = amountOf(named)
  for (let added = 0; ; added++) {
    if (added > 0) {
      const u = extra[added - 1]
      if (u === undefined) break
      inputs.push(u)
      sum += u.amount
    }
    if (!need.covers(sum, inputs.length)) continue
    const plan = planFromInputs(v, r, inputs, target)
    if (plan !== undefined) return plan
  }
  return shortOf(r, inputs, r.change.kind === "feePayer" ? target : null)
}

const amountOf = (xs: ReadonlyArray<{ readonly amount: bigint }>): bigint => {
  let sum = 0n
  for (const x of xs) sum += x.amount
  return sum
}

/**
 * When inputs summing to `sum` make planFromInputs plan something (a plan or a refusal) rather than nothing: its
 * own conditions, with the recipients' total summed once. Inputs are added one at a time until they cover the
 * transfer, so the plan (a pass over every input and recipient) is built once instead of once per input added.
 */
export const coverage = (r: PlanTerms): { readonly covers: (sum: bigint, inputs: number) => boolean } => {
  const total = amountOf(r.recipients)
  const outputs = r.recipients.length
  return {
    covers: (sum, k) =>
      r.gross
        ? sum >= total
        : sum > total + utxoFee(r.network, k, outputs + 1, r.feePriority) || sum >= total + utxoFee(r.network, k, outputs, r.feePriority),
  }
}

export type PlanTerms = Pick<UtxoTransferRequest, "network" | "recipients" | "feePriority" | "maxFee" | "gross">

/**
 * What these inputs make of the transfer: the fee (rate × size, with or without a change output), the change to
 * `changeAddress`, the recipients' amounts (less their fee shares when gross); undefined when they do not cover it.
 */
export const planFromInputs = (
  v: VaultState,
  r: PlanTerms,
  inputs: ReadonlyArray<Utxo>,
  changeAddress: string,
): UtxoTransferPlan | TxRequestError | undefined => {
  const n = r.network
  const total = r.recipients.reduce((a, x) => a + x.amount, 0n)
  const sum = inputs.reduce((a, u) => a + u.amount, 0n)
  const outputs = r.recipients.length
  const k = inputs.length
  const plain = utxoFee(n, k, outputs, r.feePriority)
  const withChange = utxoFee(n, k, outputs + 1, r.feePriority)
  let plan: Omit<UtxoTransferPlan, "inputs"> | undefined
  if (r.gross) {
    if (sum < total) return undefined
    const change = sum - total
    const fee = change > 0n ? withChange : plain
    const net = grossOf(r.recipients, fee)
    if (typeof net === "number") return { _tag: "GrossFeeExceedsAmount", recipient: net, fee: fee.toString() }
    plan = {
      recipients: net,
      change: change > 0n ? { address: changeAddress, amount: change } : null,
      fee,
      vbytes: utxoVbytes(k, outputs + (change > 0n ? 1 : 0)),
    }
  } else if (sum > total + withChange) {
    plan = {
      recipients: r.recipients,
      change: { address: changeAddress, amount: sum - total - withChange },
      fee: withChange,
      vbytes: utxoVbytes(k, outputs + 1),
    }
  } else if (sum >= total + plain) {
    // Too little left for a change output: what the inputs leave over is the fee, as a wallet drops dust change.
    plan = { recipients: r.recipients, change: null, fee: sum - total, vbytes: utxoVbytes(k, outputs) }
  }
  if (plan === undefined) return undefined
  if (r.maxFee !== null && plan.fee > r.maxFee) return { _tag: "MaxFeeExceeded", fee: plan.fee.toString(), maxFee: r.maxFee.toString() }
  // Inputs often share an address: its account is looked up once.
  const accounts = new Map<string, string | null>()
  const accountOf = (u: Utxo) => {
    let a = accounts.get(u.address)
    if (a === undefined) accounts.set(u.address, (a = v.accounts.address(u.blockchain, u.network, u.address)?.vaultAccountId ?? null))
    return a
  }
  return {
    ...plan,
    inputs: inputs.map((u) => ({
      transactionId: u.transactionId,
      vout: u.vout,
      address: u.address,
      amount: u.amount.toString(),
      vaultAccountId: accountOf(u),
    })),
  }
}

/** The refusal of inputs that do not cover the amounts and the fee. */
export const shortOf = (r: PlanTerms, inputs: ReadonlyArray<Utxo>, address: string | null): TxRequestError => {
  const needed =
    r.recipients.reduce((a, x) => a + x.amount, 0n) + (r.gross ? 0n : utxoFee(r.network, inputs.length, r.recipients.length, r.feePriority))
  return {
    _tag: "InsufficientFunds",
    assetId: r.network.nativeAssetId,
    address,
    needed: needed.toString(),
    available: inputs.reduce((a, u) => a + u.amount, 0n).toString(),
  }
}

/** The draft a planned transfer records: it spends its inputs, holds them until mined, and sends the change back. */
export const utxoTransferDraft = (
  r: Pick<UtxoTransferRequest, "vaultId" | "network" | "feePriority" | "note">,
  plan: UtxoTransferPlan,
  requestId: string,
  transactionId: string,
  shape: Pick<TxRequestDraft, "endpoint" | "prepareStrategy"> = { endpoint: "utxo-transfer", prepareStrategy: null },
): Omit<TxRequestDraft, "approvalLevels"> => {
  const native = r.network.nativeAssetId as AssetId
  const accounts = new Set(plan.inputs.map((i) => i.vaultAccountId))
  return {
    requestId,
    transactionId,
    vaultId: r.vaultId,
    vaultAccountId: accounts.size === 1 ? [...accounts][0]! : null,
    endpoint: shape.endpoint,
    blockchain: r.network.blockchain,
    network: r.network.network,
    assetId: native,
    feeAssetId: native,
    sender: null,
    recipients: plan.recipients.map((x) => ({ address: x.address, amount: x.amount.toString() })),
    feePriority: r.feePriority,
    maxFee: plan.fee.toString(),
    feeLimit: null,
    note: r.note,
    prepareStrategy: shape.prepareStrategy,
    inputs: plan.inputs.map(({ vaultAccountId: _account, ...i }) => i),
    change: plan.change === null ? null : { address: plan.change.address, amount: plan.change.amount.toString() },
    reservations: plan.inputs.map((i): Portion => ({ address: i.address, assetId: native, amount: i.amount })),
  }
}
