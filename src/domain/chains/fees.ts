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
      return kind === "coin" ? f.bandwidth.coin * f.sunPerBandwidth : f.bandwidth.token * f.sunPerBandwidth + f.energy.token * f.sunPerEnergy
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

/** Resources a tron transfer consumes (README: "Fees"); 1,000 SUN a bandwidth unit and 280 SUN an energy unit. */
export const tronCost = (n: NetworkInfo, kind: "coin" | "token"): TronCost | undefined => {
  const f = n.fees
  if (f._tag !== "TronResources") return undefined
  const bandwidth = kind === "coin" ? f.bandwidth.coin : f.bandwidth.token
  const energy = kind === "coin" ? 0n : f.energy.token
  return { bandwidth, energy, maxBurn: bandwidth * f.sunPerBandwidth + energy * f.sunPerEnergy }
}
