// Spending of a mined transaction request: the fee actually paid, the debits and the UTXO change credited.
import { findAsset, type NetworkInfo } from "../chains/index.js"
import { tronCost } from "../chains/fees.js"
import { tronTxKind } from "../chains/tron-operation.js"
import type { AssetId } from "../shared/ids.js"
import type { Portion, TxRequestDraft } from "./events.js"

/**
 * What mining a request spends: amount and fee (or only the fee when execution fails), and UTXO change. The fee
 * is debited from the fee payer when the request names one. Tron
 * burns the bandwidth its free daily allowance (`freeUsed` of it taken in the last day) does not cover, and the energy.
 * What the chain's execution took from the payer's stake (`executed`) is not burned: staked bandwidth covers a whole
 * transaction (the free allowance is then left alone), staked energy what it had of the energy; a failed execution
 * (a reverted TRC-20 call) spends the fee and moves nothing. A staking request stakes what it froze and unstakes
 * what it withdrew.
 */
export const spending = (n: NetworkInfo, d: TxRequestDraft, failsInExecution: boolean, freeUsed: number, executed?: TronExecuted) => {
  const native = d.feeAssetId
  // A UTXO transaction cannot fail once mined (the chain refuses one armed to fail at broadcast instead).
  const failed = failsInExecution && d.inputs.length === 0
  const tron = tronCost(n, tronTxKind(findAsset(d.assetId)?.type !== "TOKEN", d.operation))
  let fee = BigInt(d.maxFee)
  let freeBandwidth: number | undefined
  let outOfEnergy = false
  if (tron !== undefined && n.fees._tag === "TronResources") {
    const free = Number(n.fees.freeBandwidthPerDay) - freeUsed
    const stakedBandwidth = (executed?.bandwidth ?? 0) > 0
    freeBandwidth = !stakedBandwidth && free >= Number(tron.bandwidth) ? Number(tron.bandwidth) : 0
    const burnedEnergy = tron.energy - BigInt(executed?.energy ?? 0)
    const burn =
      (freeBandwidth > 0 || stakedBandwidth ? 0n : tron.bandwidth * n.fees.sunPerBandwidth) +
      (burnedEnergy > 0n ? burnedEnergy : 0n) * n.fees.sunPerEnergy
    // A fee limit below the energy the contract needs runs it out of energy: the limit is burned, nothing sent.
    outOfEnergy = d.feeLimit !== null && burn > BigInt(d.feeLimit)
    fee = outOfEnergy ? BigInt(d.feeLimit!) : burn
  }
  const withErrors = failed || outOfEnergy || executed?.failed !== undefined
  const sender = d.sender ?? ""
  const total = d.recipients.reduce((a, x) => a + BigInt(x.amount), 0n)
  const debits: Array<Portion> = []
  const credits: Array<Portion & { vout: number }> = []
  if (d.inputs.length > 0) {
    for (const i of d.inputs) debits.push({ address: i.address, assetId: native, amount: i.amount })
    if (d.change !== null) credits.push({ address: d.change.address, assetId: native, amount: d.change.amount, vout: d.recipients.length })
  } else if (d.recipients.some((r) => r.assetId !== undefined)) {
    // A batch: all its calls or none (an execution failure reverts them all; the fee is spent).
    if (!withErrors)
      for (const [assetId, amount] of perAsset(d)) debits.push({ address: sender, assetId: assetId as AssetId, amount: amount.toString() })
    if (fee > 0n) debits.push({ address: d.feePayer ?? sender, assetId: native, amount: fee.toString() })
  } else if (d.assetId === native && d.feePayer === undefined)
    debits.push({ address: sender, assetId: native, amount: ((withErrors ? 0n : total) + fee).toString() })
  else {
    if (!withErrors) debits.push({ address: sender, assetId: d.assetId as AssetId, amount: total.toString() })
    if (fee > 0n) debits.push({ address: d.feePayer ?? sender, assetId: native, amount: fee.toString() })
  }
  const op = d.operation
  const stakes: Array<Portion> = !withErrors && op?.type === "freeze" ? [{ address: sender, assetId: native, amount: op.amount }] : []
  const unstakes: Array<Portion> =
    !withErrors && executed?.withdrawn !== undefined ? [{ address: sender, assetId: native, amount: executed.withdrawn }] : []
  return {
    fee,
    withErrors,
    debits: debits.filter((x) => BigInt(x.amount) > 0n),
    credits,
    ...(freeBandwidth !== undefined ? { freeBandwidth } : {}),
    ...(stakes.length > 0 ? { stakes } : {}),
    ...(unstakes.length > 0 ? { unstakes } : {}),
  }
}

/** What the chain's execution of a tron transaction reported (chain-sim's ChainTxExecuted, as the settlement reads it). */
export interface TronExecuted {
  readonly bandwidth: number
  readonly energy: number
  readonly withdrawn?: string
  readonly failed?: string
}

/** A batch's amounts summed per asset, in the order the assets first appear. */
export const perAsset = (d: Pick<TxRequestDraft, "assetId" | "recipients">): Map<string, bigint> => {
  const out = new Map<string, bigint>()
  for (const r of d.recipients) out.set(r.assetId ?? d.assetId, (out.get(r.assetId ?? d.assetId) ?? 0n) + BigInt(r.amount))
  return out
}
