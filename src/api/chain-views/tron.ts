// java-tron's full-node HTTP API over a simulated Tron chain (/wallet/getnowblock, getblockbynum, getaccount,
// gettransactionbyid, gettransactioninfobyid, gettransactionfrompending, gettransactionlistfrompending), the
// parameters taken from a JSON body or the query as the node takes them. Unknown blocks, accounts and transactions answer {} as java-tron does; bad input a 400 {Error}.
import type { ChainIndex } from "./chain-index.js"
import { accountJson, blockJson, pendingIdsJson, transactionInfoJson, transactionJson, tronAddress } from "./tron-shapes.js"

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } })
const bad = (message: string) => json(400, { Error: message })

export type TronParams = Readonly<Record<string, unknown>>

const visibleOf = (p: TronParams): boolean => p.visible === true || p.visible === "true"

const txId = (p: TronParams): string | Response => {
  const v = p.value
  return typeof v === "string" && /^(0x)?[0-9a-fA-F]{64}$/.test(v) ? v : bad("value must be a transaction id, 64 hex digits")
}

/** The transaction an id names, as the index keeps ids (with 0x or without, as the chain writes them). */
const byId = (ix: ChainIndex, id: string) => {
  const bare = id.replace(/^0x/, "")
  return ix.byId(bare) ?? ix.byId(`0x${bare}`)
}

/** The answer to wallet/`method` with `params`. */
export const answerTron = (ix: ChainIndex, method: string, p: TronParams): Response => {
  const visible = visibleOf(p)
  switch (method) {
    case "getnowblock":
      return json(200, blockJson(ix, ix.tip, visible))
    case "getblockbynum": {
      const num = typeof p.num === "string" && /^[0-9]{1,15}$/.test(p.num) ? Number(p.num) : p.num
      if (typeof num !== "number" || !Number.isSafeInteger(num) || num < 0) return bad("num must be a block number")
      return json(200, num > ix.tip ? {} : blockJson(ix, num, visible))
    }
    case "getaccount": {
      const address = typeof p.address === "string" ? tronAddress(p.address) : undefined
      if (address === undefined) return bad("address must be a Tron address, base58 (T…) or hex (41…)")
      return json(200, accountJson(ix, address, visible))
    }
    case "gettransactionbyid":
    case "gettransactioninfobyid":
    case "gettransactionfrompending": {
      const id = txId(p)
      if (id instanceof Response) return id
      const tx = byId(ix, id)
      // java-tron reads the first two from the blocks applied, the third from the pending pool only.
      if (tx === undefined || (tx.height === undefined) !== (method === "gettransactionfrompending")) return json(200, {})
      return json(200, method === "gettransactioninfobyid" ? transactionInfoJson(ix, tx, visible) : transactionJson(tx, visible))
    }
    case "gettransactionlistfrompending":
      return json(200, pendingIdsJson(ix))
    default:
      return json(404, { Error: `wallet/${method} is not served by this chain view` })
  }
}
