// Network fees of a simple transfer at a priority, in base units of the native coin (from the catalogue's fee models).
import type { FeePriority, NetworkInfo } from "./types.js"

/** Virtual size of a one-input, two-output P2WPKH transaction, the usual deposit. */
export const TYPICAL_VBYTES = 141n

export const transferFee = (n: NetworkInfo, kind: "coin" | "token", priority: FeePriority = "standard"): bigint => {
  const f = n.fees
  switch (f._tag) {
    case "UtxoFeeRate":
      return f.perVbyte[priority] * TYPICAL_VBYTES
    case "Zip317":
      return f.marginalFee * BigInt(f.graceActions)
    case "EvmGas":
      return f.gasPriceWei[priority] * (kind === "coin" ? f.gasLimit.coin : f.gasLimit.token)
    case "TronResources":
      // An external sender's own resources are unknown: show what it burns without any staked.
      return kind === "coin"
        ? f.bandwidth.coin * f.sunPerBandwidth
        : f.bandwidth.token * f.sunPerBandwidth + f.energy.token * f.sunPerEnergy
    case "SolanaSignature":
      return f.lamportsPerSignature
    case "XrpDrops":
      return f.drops[priority]
  }
}

/** P2WPKH sizes: 11 vbytes of overhead, 68 per input, 31 per output. */
export const utxoVbytes = (inputs: number, outputs: number): bigint => BigInt(11 + 68 * inputs + 31 * outputs)

/** Fee of a UTXO transaction with these many inputs and outputs. */
export const utxoFee = (n: NetworkInfo, inputs: number, outputs: number, priority: FeePriority): bigint => {
  const f = n.fees
  if (f._tag === "Zip317") return f.marginalFee * BigInt(Math.max(f.graceActions, inputs, outputs))
  if (f._tag === "UtxoFeeRate") return f.perVbyte[priority] * utxoVbytes(inputs, outputs)
  return transferFee(n, "coin", priority)
}

export interface TronCost {
  readonly bandwidth: bigint
  readonly energy: bigint
  /** SUN burned when no resource is free. */
  readonly maxBurn: bigint
}

/** What a tron transaction is, for the resources it consumes. */
export type TronTxKind = "coin" | "token" | "approve" | "transfer-from" | "resource"

/** Resources a tron transaction consumes (README: "Fees"); 1,000 SUN a bandwidth unit and 280 SUN an energy unit. */
export const tronCost = (n: NetworkInfo, kind: TronTxKind): TronCost | undefined => {
  const f = n.fees
  if (f._tag !== "TronResources") return undefined
  const bandwidth =
    kind === "coin"
      ? f.bandwidth.coin
      : kind === "approve"
        ? f.bandwidth.approve
        : kind === "resource"
          ? f.bandwidth.resource
          : f.bandwidth.token
  const energy = kind === "token" || kind === "transfer-from" ? f.energy.token : kind === "approve" ? f.energy.approve : 0n
  return { bandwidth, energy, maxBurn: bandwidth * f.sunPerBandwidth + energy * f.sunPerEnergy }
}

/** Staked resource units an address has free now, per resource. */
export interface StakedUnits {
  readonly bandwidth: number
  readonly energy: number
}

/**
 * What a tron transaction takes from its payer's stake (README "Tron resources"): staked bandwidth pays the whole
 * transaction or none of it (then the free allowance or a burn pays), staked energy as much as there is (the rest
 * is burned). The chain's execution and every estimate apply this one rule.
 */
export const stakedUse = (cost: TronCost, free: StakedUnits): StakedUnits => ({
  bandwidth: free.bandwidth >= Number(cost.bandwidth) ? Number(cost.bandwidth) : 0,
  energy: Math.min(Number(cost.energy), free.energy),
})

/**
 * Gas of an EIP-7702 batch paid by a fee payer (README "Fees"): the intrinsic 21,000, 25,000 for the sender's
 * authorization, then per call 9,000 for a coin transfer or the token transfer's gas above the intrinsic
 * (65,000 − 21,000 = 44,000). A gas-sponsored transfer is a batch of one call.
 */
export const BATCH_BASE_GAS = 46_000n
export const BATCH_COIN_CALL_GAS = 9_000n

export const batchGas = (n: NetworkInfo, calls: ReadonlyArray<"coin" | "token">): bigint | undefined => {
  const f = n.fees
  if (f._tag !== "EvmGas") return undefined
  return calls.reduce((gas, kind) => gas + (kind === "coin" ? BATCH_COIN_CALL_GAS : f.gasLimit.token - f.gasLimit.coin), BATCH_BASE_GAS)
}

/** The fee of a batch (or of a gas-sponsored transfer, one call) at a priority; what estimates quote and mining charges. */
export const batchFee = (n: NetworkInfo, calls: ReadonlyArray<"coin" | "token">, priority: FeePriority = "standard"): bigint => {
  const f = n.fees
  const gas = batchGas(n, calls)
  if (f._tag !== "EvmGas" || gas === undefined) return calls.reduce((a, kind) => a + transferFee(n, kind, priority), 0n)
  return f.gasPriceWei[priority] * gas
}
