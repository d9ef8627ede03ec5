// The reference's moves of an existing transaction request: approve, reject, fail, record mined, record success.
// Mined requests spend as the withdrawal process manager does: amount plus fee, only the fee when execution fails;
// a UTXO request cannot fail once mined (it spends its inputs and returns its change), so it is never mined with errors.
import type { Portion, TxRequestStatus } from "../../../src/domain/transaction-request/index.js"
import type { VaultAggregateCommand } from "../../../src/domain/vault/index.js"
import type { VaultIntent } from "../arbitraries/vault-commands.js"
import { NETWORKS } from "../arbitraries/catalogue.js"
import { NOW as now } from "../arbitraries/ids.js"
import type { Expected, RefRequest, VaultReference } from "./vault.js"

export type RequestCommandKind = "approve" | "reject" | "fail" | "succeed" | "mine"
type Intent = Extract<VaultIntent, { kind: RequestCommandKind }>

const AWAITING: ReadonlyArray<TxRequestStatus> = ["AwaitingApproval", "AwaitingApprovalL2"]
const IN_FLIGHT: ReadonlyArray<TxRequestStatus> = ["Pending", "Prepared", "Signed", "Broadcasted"]

const release = (ref: VaultReference, r: RefRequest) => {
  const n = NETWORKS.find((x) => x.blockchain === r.draft.blockchain && x.network === r.draft.network)!
  for (const p of r.draft.reservations) ref.holding(n, p.address, p.assetId).blocked -= BigInt(p.amount)
  for (const i of r.draft.inputs) ref.reserved.delete(`${i.transactionId}:${i.vout}`)
  return n
}

/** What mining spends, as src/process-managers/withdrawals.ts computes it. */
export const spendingOf = (r: RefRequest, fee: bigint, withErrors: boolean) => {
  const d = r.draft
  const total = d.recipients.reduce((s, x) => s + BigInt(x.amount), 0n)
  const native = d.feeAssetId
  const debits: Array<Portion> = []
  const credits: Array<Portion & { vout: number }> = []
  if (d.inputs.length > 0) {
    for (const i of d.inputs) debits.push({ address: i.address, assetId: native, amount: i.amount })
    if (d.change !== null) credits.push({ address: d.change.address, assetId: native, amount: d.change.amount, vout: d.recipients.length })
  } else if (d.assetId === native)
    debits.push({ address: d.sender!, assetId: native, amount: ((withErrors ? 0n : total) + fee).toString() })
  else {
    if (!withErrors) debits.push({ address: d.sender!, assetId: d.assetId, amount: total.toString() })
    if (fee > 0n) debits.push({ address: d.sender!, assetId: native, amount: fee.toString() })
  }
  return { debits: debits.filter((x) => BigInt(x.amount) > 0n), credits }
}

export const requestCommand = (
  ref: VaultReference,
  kind: RequestCommandKind,
  intent: Intent,
): { readonly command: VaultAggregateCommand; readonly expected: Expected } => {
  const all = [...ref.requests.values()]
  const r = all.length === 0 ? undefined : all[intent.request % all.length]!
  const requestId = r?.draft.requestId ?? "req-missing"
  const illegal: Expected =
    r === undefined ? { accept: false, error: "TxRequestNotFound" } : { accept: false, error: "IllegalTxTransition" }
  const move = (ok: boolean, apply: (r: RefRequest) => void): Expected =>
    r !== undefined && ok ? { accept: true, apply: () => apply(r) } : illegal
  switch (kind) {
    case "approve":
      return {
        command: { type: "ApproveTxRequest", requestId, now },
        expected: move(
          r !== undefined && AWAITING.includes(r.status),
          (x) => (x.status = x.status === "AwaitingApproval" && x.levels === 2 ? "AwaitingApprovalL2" : "Broadcasted"),
        ),
      }
    case "reject":
      return {
        command: { type: "RejectTxRequest", requestId, reason: "no", now },
        expected: move(r !== undefined && AWAITING.includes(r.status), (x) => {
          x.status = "Rejected"
          release(ref, x)
        }),
      }
    case "fail":
      return {
        command: { type: "FailTxRequest", requestId, reason: "fault", now },
        expected: move(r !== undefined && IN_FLIGHT.includes(r.status), (x) => {
          x.status = "Failed"
          release(ref, x)
        }),
      }
    case "succeed":
      return {
        command: { type: "RecordTxSucceeded", requestId, confirmations: 1, now },
        expected: move(r?.status === "Mined", (x) => (x.status = "Success")),
      }
    case "mine": {
      const { withErrors, fee: wanted } = intent as Extract<Intent, { kind: "mine" }>
      const utxo = r !== undefined && r.draft.inputs.length > 0
      const maxFee = BigInt(r?.draft.maxFee ?? "0")
      const fee = wanted < maxFee ? wanted : maxFee
      // A UTXO transaction's fee is what its inputs leave over: the selected maximum.
      const paid = utxo ? maxFee : fee
      const spent = r === undefined ? { debits: [], credits: [] } : spendingOf(r, paid, withErrors)
      return {
        command: {
          type: "RecordTxMined",
          requestId,
          blockHeight: 2,
          blockHash: "0xmined",
          fee: paid.toString(),
          withErrors,
          ...spent,
          now,
        },
        expected: move(r?.status === "Broadcasted" && !(utxo && withErrors), (x) => {
          x.status = withErrors ? "MinedWithErrors" : "Mined"
          const n = release(ref, x)
          for (const p of spent.debits) ref.holding(n, p.address, p.assetId).total -= BigInt(p.amount)
          for (const p of spent.credits) ref.holding(n, p.address, p.assetId).total += BigInt(p.amount)
          if (!withErrors) for (const i of x.draft.inputs) ref.utxos.delete(`${i.transactionId}:${i.vout}`)
          for (const c of spent.credits)
            ref.utxos.set(`${x.draft.transactionId}:${c.vout}`, { address: c.address, amount: BigInt(c.amount) })
        }),
      }
    }
  }
}
