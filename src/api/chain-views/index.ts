// The chain views: the simulated chains through the read interfaces chain clients already speak, at /_chain/…
// (EVM JSON-RPC; Esplora's REST API for the UTXO chains; java-tron's HTTP API). Read-only and unauthenticated: the server's Host check
// is what keeps web pages out. Every read runs inside the simulator's gate, so a revert lands between reads, and
// reads the read models the custody API answers from. Not the custody API: no OpenAPI document, no answer hook.
import type { Context, Hono } from "hono"
import { findNetwork, type NetworkInfo } from "../../domain/chains/index.js"
import type { ApiDeps, DepsOf } from "../deps.js"
import { readBodyText, TOO_LARGE } from "../request-body.js"
import { chainIndex, type ChainIndex } from "./chain-index.js"
import { answerEsplora } from "./esplora.js"
import { answerJsonRpc } from "./json-rpc.js"
import { answerTron, type TronParams } from "./tron.js"

/** Fresh headers for each answer: @hono/node-server writes the content length into the object it is given. */
const jsonType = () => ({ "content-type": "application/json; charset=utf-8" })

const rpcRefusal = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), { status, headers: jsonType() })

const networkOf = (c: Context, family: NetworkInfo["family"]): NetworkInfo | undefined => {
  const n = findNetwork(c.req.param("blockchain") ?? "", c.req.param("network") ?? "")
  return n?.family === family ? n : undefined
}

const evm = async (c: Context, deps: ApiDeps): Promise<Response> => {
  const n = networkOf(c, "evm")
  if (n === undefined)
    return rpcRefusal(404, -32601, `no EVM network ${c.req.param("blockchain")}/${c.req.param("network")} in the catalogue`)
  const text = await readBodyText(c, deps.bodyLimit)
  if (text === TOO_LARGE) return rpcRefusal(413, -32600, `the body is over ${deps.bodyLimit} bytes`)
  return deps.sim.gate.shared(() => {
    let ix: ChainIndex | undefined
    const body = answerJsonRpc(text, () => (ix ??= chainIndex(deps, n)))
    return body === undefined ? new Response(null, { status: 204 }) : new Response(body, { status: 200, headers: jsonType() })
  })
}

const esplora = (c: Context, deps: ApiDeps): Response | Promise<Response> => {
  const n = networkOf(c, "utxo")
  if (n === undefined)
    return new Response(`no UTXO network ${c.req.param("blockchain")}/${c.req.param("network")} in the catalogue`, { status: 404 })
  const rest = c.req.path.slice(`/_chain/${n.blockchain}/${n.network}/esplora`.length)
  return deps.sim.gate.shared(() => answerEsplora(chainIndex(deps, n), rest))
}

const tronError = (status: number, message: string) => new Response(JSON.stringify({ Error: message }), { status, headers: jsonType() })

/** The parameters of a wallet/… call: the JSON object of a POST body (none: {}), or a GET's query. */
const tronParams = async (c: Context, deps: ApiDeps): Promise<TronParams | Response> => {
  if (c.req.method === "GET") return c.req.query()
  const text = await readBodyText(c, deps.bodyLimit)
  if (text === TOO_LARGE) return tronError(413, `the body is over ${deps.bodyLimit} bytes`)
  if (text.trim() === "") return {}
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as TronParams) : tronError(400, "the body must be a JSON object")
  } catch {
    return tronError(400, "the body is not JSON")
  }
}

const tron = async (c: Context, deps: ApiDeps): Promise<Response> => {
  const n = networkOf(c, "tron")
  if (n === undefined) return tronError(404, `no Tron network ${c.req.param("blockchain")}/${c.req.param("network")} in the catalogue`)
  const params = await tronParams(c, deps)
  if (params instanceof Response) return params
  return deps.sim.gate.shared(() => answerTron(chainIndex(deps, n), c.req.param("method") ?? "", params))
}

export const mountChainViews = (app: Hono, depsOf: DepsOf): void => {
  app.post("/_chain/:blockchain/:network", (c) => evm(c, depsOf(c)))
  app.get("/_chain/:blockchain/:network/esplora/*", (c) => esplora(c, depsOf(c)))
  app.post("/_chain/:blockchain/:network/wallet/:method", (c) => tron(c, depsOf(c)))
  app.get("/_chain/:blockchain/:network/wallet/:method", (c) => tron(c, depsOf(c)))
}
