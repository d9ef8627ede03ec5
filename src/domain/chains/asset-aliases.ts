// The workspace's own asset ids: a fixture may name catalogue assets by the ids an integration was configured with
// (the real service's), `{ assetId, blockchain, network, symbol | contract }`. The log and every read model keep the
// catalogue's ids; the API maps at its edge, requests' asset ids to the catalogue's and answers' back.
import { assetsOf, findAsset, findAssetByContract } from "./catalogue.js"

export interface AssetAlias {
  readonly assetId: string
  readonly blockchain: string
  readonly network: string
  /** The coin's or token's symbol (case-insensitive), or a token's contract. */
  readonly symbol?: string
  readonly contract?: string
}

export interface AssetIds {
  /** Whether any alias is set (without one, both directions are the identity and nothing is mapped). */
  readonly any: boolean
  /** The catalogue's id of an asset id a request gave (an alias, or any other id unchanged). */
  readonly fromWire: (id: string) => string
  /** The id an answer shows for a catalogue id (its alias when it has one). */
  readonly toWire: (id: string) => string
}

export const NO_ALIASES: AssetIds = { any: false, fromWire: (id) => id, toWire: (id) => id }

/** Resolves each alias to its catalogue asset; throws with the entry's index on an unknown, ambiguous or clashing one. */
export const makeAssetIds = (aliases: ReadonlyArray<AssetAlias> | undefined): AssetIds => {
  if (aliases === undefined || aliases.length === 0) return NO_ALIASES
  const fromWire = new Map<string, string>()
  const toWire = new Map<string, string>()
  aliases.forEach((a, i) => {
    const where = `assets[${i}] (${a.assetId})`
    if ((a.symbol === undefined) === (a.contract === undefined)) throw new Error(`${where}: give either symbol or contract`)
    let id: string | undefined
    if (a.contract !== undefined) id = findAssetByContract(a.blockchain, a.network, a.contract)?.id
    else {
      const found = assetsOf({ blockchain: a.blockchain, network: a.network, symbol: a.symbol! })
      if (found.length > 1) throw new Error(`${where}: ${a.symbol} names several assets on ${a.blockchain}/${a.network}; give the contract`)
      id = found[0]?.id
    }
    if (id === undefined) throw new Error(`${where}: no such asset on ${a.blockchain}/${a.network}`)
    if (fromWire.has(a.assetId)) throw new Error(`${where}: the id is given twice`)
    if (toWire.has(id)) throw new Error(`${where}: the asset already has the id ${toWire.get(id)}`)
    const other = findAsset(a.assetId)
    if (other !== undefined && other.id !== id)
      throw new Error(`${where}: the id is the simulator's id of another asset (${other.symbol} on ${other.blockchain}/${other.network})`)
    fromWire.set(a.assetId, id)
    toWire.set(id, a.assetId)
  })
  return { any: true, fromWire: (id) => fromWire.get(id) ?? id, toWire: (id) => toWire.get(id) ?? id }
}

/** Keys whose string values are asset ids, at any depth of a request's body or an answer. */
const ASSET_ID_KEYS: ReadonlySet<string> = new Set(["assetId", "feePayerAssetId"])

/** A copy of a JSON value with every asset id (and the values of `alsoKeys`) mapped. */
export const mapAssetIds = (value: unknown, map: (id: string) => string, alsoKeys?: ReadonlyArray<string>): unknown => {
  if (Array.isArray(value)) return value.map((x) => mapAssetIds(x, map, alsoKeys))
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    out[k] = typeof v === "string" && (ASSET_ID_KEYS.has(k) || alsoKeys?.includes(k) === true) ? map(v) : mapAssetIds(v, map, alsoKeys)
  return out
}
