// Transaction request decisions: reserve funds atomically with the balance they draw on, then walk the status
// machine (approval levels, pending → prepared → signed → broadcasted → mined → success, or a failure).
import { absurd, accept, reject, type Decision } from "../shared/decider.js"
import type { SimInstant } from "../shared/sim-time.js"
import { findNetwork } from "../chains/index.js"
import { availableOf, type Ledger } from "../ledger/state.js"
import type { VaultAccounts } from "../vault-account/state.js"
import type { TxRequestCommand } from "./commands.js"
import { feeOfDraft } from "./estimate.js"
import type { ProgressStatus, TxRequestDraft, TxRequestEvent } from "./events.js"
import { planUtxoTransfer, utxoTransferDraft } from "./explicit-inputs.js"
import { planMultipleTransfer } from "./coin-selection.js"
import { transitions, type TxRequestError, type TxRequestState, type TxRequestStatus } from "./state.js"

type Result = Decision<TxRequestEvent, TxRequestError>

export interface VaultView {
  readonly vaultId: import("../shared/ids.js").VaultId
  readonly policy: { readonly mode: "auto" | "manual"; readonly levels: 1 | 2 }
  readonly accounts: VaultAccounts
  readonly ledger: Ledger
  readonly requests: ReadonlyMap<string, TxRequestState>
}

const progress = (v: VaultView, requestId: string, transactionId: string, at: SimInstant): Array<TxRequestEvent> =>
  (["pending", "prepared", "signed", "broadcasted"] as ReadonlyArray<ProgressStatus>).map((status) => ({
    type: "TxRequestProgressed",
    data: { requestId, vaultId: v.vaultId, status, transactionId: status === "broadcasted" ? transactionId : null, at },
  }))

/**
 * A new request: its sender and fee payer are the vault's and hold what they pay, its fee within its ceiling, its
 * reservations within what is available and its named inputs unspent and unheld; then created, and walked to
 * broadcasted under the auto policy.
 */
const createTxRequest = (c: Extract<TxRequestCommand, { type: "CreateTxRequest" }>, v: VaultView): Result => {
  const d = c.draft
  if (d.sender !== null) {
    const a = v.accounts.address(d.blockchain, d.network, d.sender)
    if (a === undefined) return reject({ _tag: "SenderNotInVault", address: d.sender })
    for (const assetId of sentAssets(d))
      if (!a.assets.has(assetId)) return reject({ _tag: "AssetNotHeldBySender", address: d.sender, assetId })
  }
  if (d.feePayer !== undefined) {
    // Any address of this vault (any of its accounts) on the request's chain may pay the fee, if it holds the fee asset.
    const p = v.accounts.address(d.blockchain, d.network, d.feePayer)
    if (p === undefined) return reject({ _tag: "FeePayerNotInVault", address: d.feePayer })
    if (!p.assets.has(d.feeAssetId)) return reject({ _tag: "FeeAssetNotHeldByFeePayer", address: d.feePayer, assetId: d.feeAssetId })
  }
  if (d.feeCeiling !== undefined) {
    const n = findNetwork(d.blockchain, d.network)
    const fee =
      n === undefined
        ? 0n
        : feeOfDraft(n, d, { freeBandwidthUsed: c.freeBandwidthUsed ?? 0, ...(c.staked !== undefined ? { staked: c.staked } : {}) })
    if (fee > BigInt(d.feeCeiling))
      return reject({ _tag: "MaxFeeExceeded", fee: fee.toString(), maxFee: d.feeCeiling, assetId: d.feeAssetId })
  }
  // Each reservation must fit in what is available now (reservations of other open requests excluded).
  const needed = new Map<string, { address: string; assetId: string; amount: bigint }>()
  for (const r of d.reservations) {
    const k = `${r.address}|${r.assetId}`
    needed.set(k, { address: r.address, assetId: r.assetId, amount: (needed.get(k)?.amount ?? 0n) + BigInt(r.amount) })
  }
  for (const n of needed.values()) {
    const available = availableOf(v.ledger, d.blockchain, d.network, n.address, n.assetId)
    if (available < n.amount)
      return reject({
        _tag: "InsufficientFunds",
        assetId: n.assetId,
        address: n.address,
        needed: n.amount.toString(),
        available: available.toString(),
        ...(d.feePayer !== undefined && n.address === d.feePayer && n.address !== d.sender ? { feePayer: true as const } : {}),
      })
  }
  for (const i of d.inputs)
    if (v.ledger.reservedOutputs.has(`${i.transactionId}:${i.vout}`) || !v.ledger.utxos.has(`${i.transactionId}:${i.vout}`))
      return reject({ _tag: "InsufficientFunds", assetId: d.assetId, address: null, needed: i.amount, available: "0" })
  const approvalLevels = v.policy.mode === "auto" ? 0 : v.policy.levels
  const created: TxRequestEvent = { type: "TxRequestCreated", data: { ...d, approvalLevels, at: c.now } }
  return accept(created, ...(approvalLevels === 0 ? progress(v, d.requestId, d.transactionId, c.now) : []))
}

export const decideTxRequest = (c: TxRequestCommand, v: VaultView): Result => {
  if (c.type === "CreateTxRequest") return createTxRequest(c, v)
  if (c.type === "CreateUtxoTransfer") {
    // The inputs are checked and the fee computed against this revision of the vault: two requests naming one output cannot both pass.
    const plan = planUtxoTransfer(v, c.request, c.changeAddress?.data.address ?? null)
    if ("_tag" in plan) return reject(plan)
    return decideTxRequest(
      { type: "CreateTxRequest", draft: utxoTransferDraft(c.request, plan, c.requestId, c.transactionId), now: c.now },
      v,
    )
  }
  if (c.type === "CreateMultipleTransfer") {
    const plan = planMultipleTransfer(v, c.request, c.changeAddress.data.address)
    if ("_tag" in plan) return reject(plan)
    const draft = utxoTransferDraft(c.request, plan, c.requestId, c.transactionId, {
      endpoint: "multiple-transfer",
      prepareStrategy: c.request.prepareStrategy,
    })
    return decideTxRequest({ type: "CreateTxRequest", draft, now: c.now }, v)
  }
  const r = v.requests.get(c.requestId)
  if (r === undefined) return reject({ _tag: "TxRequestNotFound", requestId: c.requestId })
  const illegal = () => reject<TxRequestError>({ _tag: "IllegalTxTransition", from: r.status, command: c.type })
  // The status machine's table decides which moves are legal; only created requests leave Created, in their own batch.
  const may = (to: TxRequestStatus) => r.status !== "Created" && transitions[r.status].includes(to)
  const base = { requestId: c.requestId, vaultId: v.vaultId, at: c.now }
  switch (c.type) {
    case "ApproveTxRequest": {
      const to = r.status === "AwaitingApproval" && r.draft.approvalLevels === 2 ? "AwaitingApprovalL2" : "Pending"
      if (!may(to)) return illegal()
      const level = r.status === "AwaitingApproval" ? 1 : 2
      return to === "AwaitingApprovalL2"
        ? accept({ type: "TxRequestApproved", data: { ...base, level } })
        : accept({ type: "TxRequestApproved", data: { ...base, level } }, ...progress(v, c.requestId, txIdOf(r), c.now))
    }
    case "RejectTxRequest":
      return may("Rejected")
        ? accept({
            type: "TxRequestRejected",
            data: { ...base, blockchain: r.draft.blockchain, network: r.draft.network, reason: c.reason, releases: r.draft.reservations },
          })
        : illegal()
    case "FailTxRequest":
      return may("Failed")
        ? accept({
            type: "TxRequestFailed",
            data: { ...base, blockchain: r.draft.blockchain, network: r.draft.network, reason: c.reason, releases: r.draft.reservations },
          })
        : illegal()
    case "RecordTxMined":
      // A UTXO transaction cannot fail once mined (its fee is what its inputs leave over): no mined-with-errors for it.
      return may(c.withErrors ? "MinedWithErrors" : "Mined") && !(c.withErrors && r.draft.inputs.length > 0)
        ? accept({
            type: "TxRequestMined",
            data: {
              ...base,
              transactionId: txIdOf(r),
              blockchain: r.draft.blockchain,
              network: r.draft.network,
              blockHeight: c.blockHeight,
              blockHash: c.blockHash,
              fee: c.fee,
              withErrors: c.withErrors,
              ...(c.freeBandwidth !== undefined ? { freeBandwidth: c.freeBandwidth } : {}),
              releases: r.draft.reservations,
              debits: c.debits,
              credits: c.credits,
              ...(c.stakes !== undefined && c.stakes.length > 0 ? { stakes: c.stakes } : {}),
              ...(c.unstakes !== undefined && c.unstakes.length > 0 ? { unstakes: c.unstakes } : {}),
            },
          })
        : illegal()
    case "RecordTxSucceeded":
      return may("Success") ? accept({ type: "TxRequestSucceeded", data: { ...base, confirmations: c.confirmations } }) : illegal()
    default:
      return absurd(c)
  }
}

const txIdOf = (r: TxRequestState): string => r.draft.transactionId

/** The assets a request sends: its own, or each recipient's in a batch. */
const sentAssets = (d: Omit<TxRequestDraft, "approvalLevels">): ReadonlySet<TxRequestDraft["assetId"]> =>
  new Set(d.recipients.map((r) => r.assetId ?? d.assetId))
