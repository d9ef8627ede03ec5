// The parties of a transfer whose gas another address of the vault pays (gas-sponsorship-transfer, batch, and
// their fee estimates): the chain, the vault, the sender in its account, the fee payer.
import type { ApiVersion } from "../../domain/api-key/index.js"
import { findAsset, findNetwork, type AssetInfo, type NetworkInfo } from "../../domain/chains/index.js"
import type { JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { addressOn } from "../inputs/address.js"
import { amountIn } from "../inputs/amount.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { invalidField } from "../inputs/invalid.js"
import { feePayerIn, senderIn, unknownVault, vaultOn } from "../inputs/parties.js"

/** The chains the spec lists for gas sponsorship and EIP-7702 batches, mainnets and their testnets. */
export const SPONSORED_CHAINS: ReadonlyArray<string> = ["ethereum", "binance-smart-chain", "base", "optimism", "arbitrum", "polygon"]

interface Parties {
  readonly network: NetworkInfo
  readonly native: AssetInfo
  readonly vaultAccountId: string
  readonly sender: string
  readonly feePayer: string
}

/**
 * The checks both endpoints share, in the order a caller fixes them: the chain, the vault, the sender's account
 * and address, then the fee payer (an address of the same vault on that chain, not the sender).
 */
export const parties = (
  deps: ApiDeps,
  version: ApiVersion,
  vaultId: string,
  n: NetworkInfo,
  chainAttribute: string,
  vaultAccountId: string | undefined,
  senderAttribute: string,
  senderAddress: string,
  feePayerAttribute: string,
  feePayer: string,
): Parties | ApiError => {
  if (!SPONSORED_CHAINS.includes(n.blockchain))
    return invalidField(chainAttribute, `gas sponsorship is for ${SPONSORED_CHAINS.join(", ")}; ${n.blockchain} is not one of them`)
  const vault = vaultOn(deps, vaultId, n, chainAttribute, unknownVault(version))
  if (isApiError(vault)) return vault
  const from = senderIn(deps, vaultId, n, senderAddress, vaultAccountId, senderAttribute)
  if (isApiError(from)) return from
  const payer = feePayerIn(deps, vaultId, n, feePayer, feePayerAttribute, from.address, senderAttribute)
  if (isApiError(payer)) return payer
  return {
    network: n,
    native: findAsset(n.nativeAssetId)!,
    vaultAccountId: from.vaultAccountId,
    sender: from.address,
    feePayer: payer,
  }
}

/**
 * A batch's chain, named by its fee payer's gas asset (`attribute`): one of SPONSORED_CHAINS, and the asset its
 * native coin. The batch and its fee estimate check it alike.
 */
export const batchChain = (gasAssetId: string, attribute: string): NetworkInfo | ApiError => {
  const gas = findAsset(gasAssetId)
  if (gas === undefined) return errors.resourceNotFound("asset")
  const n = findNetwork(gas.blockchain, gas.network)!
  if (!SPONSORED_CHAINS.includes(n.blockchain))
    return invalidField(attribute, `batches are for ${SPONSORED_CHAINS.join(", ")}; ${n.blockchain} is not one of them`)
  if (gas.id !== n.nativeAssetId)
    return invalidField(attribute, `must be the chain's gas asset (${findAsset(n.nativeAssetId)!.unit} on ${n.blockchain}/${n.network})`)
  return n
}

export interface BatchRecipient {
  readonly address: string
  readonly amount: bigint
  readonly asset: AssetInfo
}

/**
 * A batch's recipients, in order: each `{ address, amount, assetId }` of strings, an asset of the batch's chain, its
 * amount in that asset's decimals, its address on the chain. The batch and its fee estimate decode them alike.
 */
export const batchRecipients = (n: NetworkInfo, raw: ReadonlyArray<JsonObject>): Array<BatchRecipient> | ApiError => {
  const recipients: Array<BatchRecipient> = []
  for (const [i, r] of raw.entries()) {
    if (typeof r.address !== "string" || typeof r.amount !== "string" || typeof r.assetId !== "string")
      return invalidField(`recipients[${i}]`, "must be { address, amount, assetId } with string values")
    const asset = findAsset(r.assetId)
    if (asset === undefined) return errors.resourceNotFound(`asset of recipients[${i}]`)
    if (asset.blockchain !== n.blockchain || asset.network !== n.network)
      return invalidField(`recipients[${i}].assetId`, `is not an asset of ${n.blockchain}/${n.network}, the fee payer's chain`)
    const amount = amountIn(r.amount, asset, `recipients[${i}].amount`)
    if (isApiError(amount)) return amount
    const badTo = addressOn(n, r.address, `recipients[${i}].address`)
    if (badTo !== undefined) return badTo
    recipients.push({ address: r.address, amount, asset })
  }
  return recipients
}
