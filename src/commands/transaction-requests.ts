// Use cases of endpoints #16–#21 and of the control plane's approve/reject: build, reserve, broadcast.
import { Effect } from "effect"
import { findAsset, type AssetInfo, type FeePriority, type NetworkInfo } from "../domain/chains/index.js"
import type { AssetId, VaultId } from "../domain/shared/ids.js"
import type { SimInstant } from "../domain/shared/sim-time.js"
import type { Portion, RequestEndpoint, SpentOutput, TxRequestDraft } from "../domain/transaction-request/index.js"
import { vaultDecider, vaultStream, type VaultState } from "../domain/vault/index.js"
import { formatTxId } from "../chain-sim/formats.js"
import { transferFee, tronCost, utxoFee } from "../chain-sim/fees.js"
import { runDeciderWith, runDecider } from "./run-decider.js"
import { AddressDerivation, Ids, SimClock } from "./services.js"
import { retryOnConflict } from "./retry.js"

export interface CreateRequestInput {
  readonly vaultId: VaultId
  readonly endpoint: RequestEndpoint
  readonly network: NetworkInfo
  readonly asset: AssetInfo
  readonly sender: string | null
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>
  readonly feePriority: FeePriority | null
  readonly feeLimit: bigint | null
  readonly note: string | null
  readonly prepareStrategy: "minimize-dust" | "optimize-size" | null
}

/** The most the network fee may cost (reserved at creation, README "Fees"). */
export const maxFeeOf = (n: NetworkInfo, asset: AssetInfo, priority: FeePriority, feeLimit: bigint | null): bigint => {
  const tron = tronCost(n, asset.type === "TOKEN" ? "token" : "coin")
  if (tron !== undefined) return feeLimit !== null && feeLimit < tron.maxBurn ? feeLimit : tron.maxBurn
  return transferFee(n, asset.type === "TOKEN" ? "token" : "coin", priority)
}

const sumOf = (xs: ReadonlyArray<{ readonly amount: bigint }>) => xs.reduce((a, x) => a + x.amount, 0n)

type Selection = { inputs: Array<SpentOutput>; fee: bigint; change: bigint } | undefined

/** Coin selection over the vault's unspent outputs: smallest first (minimize-dust) or largest first (optimize-size). */
export const selectCoins = (s: VaultState, input: CreateRequestInput, total: bigint, priority: FeePriority): Selection => {
  if (s._tag !== "Active") return undefined
  const n = input.network
  const utxos = [...s.ledger.utxos.entries()]
    .filter(([key, u]) => u.blockchain === n.blockchain && u.network === n.network && !s.ledger.reservedOutputs.has(key))
    .map(([, u]) => u)
    .sort((a, b) => (input.prepareStrategy === "optimize-size" ? Number(b.amount - a.amount) : Number(a.amount - b.amount)) || (a.transactionId < b.transactionId ? -1 : 1))
  const chosen: Array<SpentOutput> = []
  let sum = 0n
  for (const u of utxos) {
    chosen.push({ transactionId: u.transactionId, vout: u.vout, address: u.address, amount: u.amount.toString() })
    sum += u.amount
    const feeWithChange = utxoFee(n, chosen.length, input.recipients.length + 1, priority)
    if (sum === total + utxoFee(n, chosen.length, input.recipients.length, priority)) return { inputs: chosen, fee: sum - total, change: 0n }
    if (sum >= total + feeWithChange) return { inputs: chosen, fee: feeWithChange, change: sum - total - feeWithChange }
  }
  return undefined
}

const draftOf = (s: VaultState, input: CreateRequestInput, requestId: string, transactionId: string, change: string | null) => {
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
  }
  if (n.family === "utxo") {
    const sel = selectCoins(s, input, total, priority)
    // Nothing selectable: reserve the whole amount at no address so the decider refuses it as insufficient.
    if (sel === undefined) return { ...base, maxFee: "0", inputs: [], change: null, reservations: [{ address: "", assetId: native.id as AssetId, amount: (total + 1n).toString() }] }
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
  const account = s._tag === "Active" ? s.accounts.address(n.blockchain, n.network, sender) : undefined
  const maxFee = maxFeeOf(n, input.asset, priority, input.feeLimit)
  const reservations: Array<Portion> =
    input.asset.id === native.id
      ? [{ address: account?.address ?? sender, assetId: native.id as AssetId, amount: (total + maxFee).toString() }]
      : [
          { address: account?.address ?? sender, assetId: input.asset.id as AssetId, amount: total.toString() },
          ...(maxFee > 0n ? [{ address: account?.address ?? sender, assetId: native.id as AssetId, amount: maxFee.toString() }] : []),
        ]
  return { ...base, vaultAccountId: account?.vaultAccountId ?? null, sender: account?.address ?? sender, maxFee: maxFee.toString(), inputs: [], change: null, reservations }
}

export const createTxRequest = Effect.fn("createTxRequest")(
  function* (input: CreateRequestInput) {
    const ids = yield* Ids
    const derivation = yield* AddressDerivation
    const now: SimInstant = yield* (yield* SimClock).now
    const requestId = yield* ids.next("txRequest")
    const transactionId = formatTxId(input.network.family, (len) => ids.bytes(`txid:${requestId}`, len))
    const n = input.network
    const r = yield* runDeciderWith(vaultDecider, vaultStream(input.vaultId), (s) => {
      let changeAddress: Extract<import("../domain/vault/index.js").VaultAggregateEvent, { type: "AddressDerived" }> | undefined
      let change: string | null = null
      if (n.family === "utxo" && s._tag === "Active") {
        const index = s.accounts.nextIndex(null, n.blockchain, n.network, 1)
        const d = derivation.derive(input.vaultId, n.blockchain, n.network, { account: 0, change: 1, index })
        change = d.address
        changeAddress = {
          type: "AddressDerived",
          data: { vaultId: input.vaultId, vaultAccountId: null, blockchain: n.blockchain, network: n.network, address: d.address, derivationPath: d.derivationPath, change: 1, index, label: "change", addressType: "change", assetIds: [n.nativeAssetId], at: now },
        }
      }
      const draft = draftOf(s, input, requestId, transactionId, change)
      const used = draft.change !== null
      return Effect.succeed({ type: "CreateTxRequest" as const, draft, ...(used && changeAddress !== undefined ? { changeAddress } : {}), now })
    })
    return { ...r, requestId, transactionId }
  },
  Effect.retry(retryOnConflict),
)

export const approveTxRequest = (vaultId: VaultId, requestId: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "ApproveTxRequest", requestId, now })
  }).pipe(Effect.retry(retryOnConflict))

export const rejectTxRequest = (vaultId: VaultId, requestId: string, reason: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "RejectTxRequest", requestId, reason, now })
  }).pipe(Effect.retry(retryOnConflict))

export const failTxRequest = (vaultId: VaultId, requestId: string, reason: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "FailTxRequest", requestId, reason, now })
  }).pipe(Effect.retry(retryOnConflict))

export type { TxRequestDraft }
