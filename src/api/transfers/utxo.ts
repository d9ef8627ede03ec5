// What the 2026 UTXO transfers share (utxo-transfer, multiple-transfer, their fee estimate): the recipients' shape
// and values, and the UTXO network of the coin in a vault of its type.
import type { ApiVersion } from "../../domain/api-key/index.js"
import { findAsset, findNetwork, type NetworkInfo } from "../../domain/chains/index.js"
import { shapes, typed, type JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { addressOn } from "../inputs/address.js"
import { amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { networkNotAllowed, unknownVault, vaultAt } from "../inputs/parties.js"

export const MAX_RECIPIENTS = 150
export const MAX_SENDERS = 500

export const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

/** How many own keys an object has, at most `max + 1` counted (no array of them per object, as Object.keys makes). */
export const keyCount = (o: JsonObject, max: number): number => {
  let n = 0
  for (const k in o) if (Object.hasOwn(o, k) && ++n > max) break
  return n
}

/** Each of 1 to `max` items passes `ok` (a loop: a body names up to hundreds of them). */
export const everyOf = (v: unknown, max: number, ok: (item: JsonObject) => boolean): boolean => {
  if (!Array.isArray(v) || v.length < 1 || v.length > max) return false
  for (const x of v) if (!isObject(x) || !ok(x)) return false
  return true
}

/** The recipients `value` holds when it is 1 to `max` objects { address, amount } of strings, else what is wrong. */
export const recipientsIn = (
  max: number,
  value: unknown,
): ReadonlyArray<{ readonly address: string; readonly amount: string }> | string => {
  const wrong = `must be 1 to ${max} objects { address, amount } with string values`
  if (!Array.isArray(value) || value.length < 1 || value.length > max) return wrong
  const out: Array<{ readonly address: string; readonly amount: string }> = []
  for (const r of value) {
    if (!isObject(r) || typeof r.address !== "string" || typeof r.amount !== "string" || keyCount(r, 2) !== 2) return wrong
    out.push({ address: r.address, amount: r.amount })
  }
  return out
}

export const recipientsCheck = (max: number) =>
  typed(shapes.list(shapes.strings(["address", "amount"]), 1, max), (v) => {
    const r = recipientsIn(max, v)
    return typeof r === "string" ? r : undefined
  })

/** The UTXO network of a 2026 transfer's assetId, in a vault of the matching network type. */
export const utxoNetworkOf = (deps: ApiDeps, vaultId: string, assetId: string, version: ApiVersion): NetworkInfo | ApiError => {
  const vault = vaultAt(deps, vaultId, unknownVault(version))
  if (isApiError(vault)) return vault
  const asset = findAsset(assetId)
  if (asset === undefined) return errors.resourceNotFound("asset")
  const n = findNetwork(asset.blockchain, asset.network)!
  if (n.family !== "utxo" || asset.id !== n.nativeAssetId)
    return invalidField("assetId", "must be the coin of a UTXO chain (bitcoin, litecoin, dogecoin, bitcoin-cash, dash, zcash)")
  return vault.profile.type === n.networkType ? n : networkNotAllowed(vault, n, "assetId")
}

/** Recipients' amounts in base units, their addresses valid on the chain. */
export const parseRecipients = (
  n: NetworkInfo,
  raw: ReadonlyArray<{ address: string; amount: string }>,
): Array<{ address: string; amount: bigint }> | ApiError => {
  const coin = findAsset(n.nativeAssetId)!
  const out: Array<{ address: string; amount: bigint }> = []
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!
    const amount = amountIn(r.amount, coin, `recipients[${i}].amount`)
    if (isApiError(amount)) return amount
    const badTo = addressOn(n, r.address, `recipients[${i}].address`)
    if (badTo !== undefined) return badTo
    out.push({ address: r.address, amount })
  }
  return out
}
