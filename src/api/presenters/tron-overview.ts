import { findAsset, type NetworkInfo } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { AsOf } from "../../projections/projection.js"
import { chainKey } from "../../chain-sim/index.js"
import { accountOf, delegationsOf, expiredAt, limitOf, usageAt, WINDOW_MS, type TronResource } from "../../chain-sim/tron.js"
import type { ApiDeps } from "../deps.js"

export const overviewOf = (deps: ApiDeps, n: NetworkInfo, address: string, asOf: AsOf) => {
  const reads = deps.reads
  const native = findAsset(n.nativeAssetId)!
  const fmt = (x: bigint) => formatAmount(x, native.decimals)
  const time = reads.timeOf(asOf)
  const ledger = reads.tronLedger(chainKey(n.blockchain, n.network), asOf)
  const a = accountOf(ledger, address)
  const b = reads.balance(n.blockchain, n.network, address, native.id, asOf)
  const staked = reads.staked(n.blockchain, n.network, address, native.id, asOf)
  const freeLimit = n.fees._tag === "TronResources" ? Number(n.fees.freeBandwidthPerDay) : 0
  const freeUsed = Math.min(
    freeLimit,
    reads
      .tronBandwidth(address)
      .filter((u) => u.at > time - WINDOW_MS && (asOf === undefined || u.position <= asOf))
      .reduce((s, u) => s + u.units, 0),
  )
  const resource = (r: TronResource) => {
    const stakedLimit = limitOf(n, a, r)
    const stakedUsed = Math.min(stakedLimit, usageAt(a.usage[r], time))
    const free = r === "bandwidth" ? { freeLimit, freeUsed } : {}
    const limit = stakedLimit + (r === "bandwidth" ? freeLimit : 0)
    const used = stakedUsed + (r === "bandwidth" ? freeUsed : 0)
    return {
      limit,
      used,
      available: limit - used,
      ...free,
      stakedLimit,
      stakedUsed,
      staked: fmt(a.frozen[r]),
      delegatedToOthers: fmt(a.delegatedOut[r]),
      delegatedFromOthers: fmt(a.delegatedIn[r]),
    }
  }
  return {
    address,
    network: n.network,
    balance: { total: fmt(b.total), available: fmt(b.available), staked: fmt(staked), unit: native.unit },
    resources: { bandwidth: resource("bandwidth"), energy: resource("energy") },
    unfreezing: a.unfreezing.map((u) => ({ amount: fmt(u.amount), withdrawableFrom: Math.floor(u.expiresAt / 1000) })),
    withdrawable: fmt(expiredAt(a, time)),
    delegations: delegationsOf(ledger, address).map((d) => ({
      fromAddress: d.from,
      toAddress: d.to,
      resource: d.resource,
      amount: fmt(d.unlocked + d.locked),
      lockedAmount: fmt(d.locked),
      lockedUntilBlock: d.lockedUntil,
    })),
  }
}
