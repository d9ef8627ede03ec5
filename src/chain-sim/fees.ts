// Network fees of a simple transfer at a priority, in base units of the native coin (from the catalogue's fee models).
import type { FeePriority, NetworkInfo } from "../domain/chains/index.js"

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
