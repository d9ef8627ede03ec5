// What an EVM chain's transactions cost and who sends them: the sender (a fee payer for a sponsored transfer or a
// batch), the gas used and the price that makes gas × price the custody API's fee.
import { batchGas } from "../../domain/chains/fees.js"
import { findAsset, type NetworkInfo } from "../../domain/chains/index.js"
import { type ChainTx, isBatch, payerOf } from "./chain-tx.js"

/** The account that signs and pays for the transaction, lower-case. */
export const senderOf = (tx: ChainTx): string => payerOf(tx.transfer).toLowerCase()

const kindOf = (assetId: string): "coin" | "token" => (findAsset(assetId)?.type === "TOKEN" ? "token" : "coin")

/** Gas used: the fee model's limit for the transfer's kind, a batch's gas for a batch (README "Fees"). */
export const gasOf = (n: NetworkInfo, tx: ChainTx): bigint => {
  const t = tx.transfer
  if (n.fees._tag !== "EvmGas") return 0n
  if (isBatch(tx))
    return (
      batchGas(
        n,
        (t.calls ?? [t]).map((c) => kindOf(c.assetId)),
      ) ?? 0n
    )
  return kindOf(t.assetId) === "token" ? n.fees.gasLimit.token : n.fees.gasLimit.coin
}

/** The price per gas that makes gas used × price the fee the transaction paid (the custody API's fee). */
export const gasPriceOf = (n: NetworkInfo, tx: ChainTx): bigint => {
  const gas = gasOf(n, tx)
  return gas === 0n ? 0n : tx.fee / gas
}
