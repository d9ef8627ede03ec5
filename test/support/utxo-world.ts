// A served simulator for the UTXO endpoints' tests: a 2026-03-20 key, a backed-up test vault with two accounts
// holding bitcoin testnet addresses, signed calls over a kept-alive socket (undici) and the events they wrote.
import { Effect } from "effect"
import type { Client } from "undici"
import { createApp } from "../../src/api/app.js"
import { signRequest, type Credentials } from "../../src/client/index.js"
import { assetId } from "./catalogue.js"
import { createKey, startHarness, type Harness } from "./harness.js"
import { listen } from "./server.js"
import { send, strictConnection } from "./strict-http.js"

export const BTC = assetId("bitcoin", "testnet", "BTC")
export const EXTERNAL_BTC = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
export const EXTERNAL_BTC_2 = "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"

export interface UtxoWorld {
  readonly h: Harness
  readonly creds: Credentials
  readonly vault: string
  readonly call: (method: string, path: string, item?: unknown) => Promise<{ status: number; body: any }>
  readonly admin: Harness["admin"]
  /** Events appended since `from` (a store position), their types in order. */
  readonly eventsSince: (from: bigint) => Promise<Array<{ type: string; data: any }>>
  readonly head: () => Promise<bigint>
  readonly account: (name: string) => Promise<string>
  readonly btcAddress: (vaultAccountId: string, label?: string) => Promise<string>
  readonly deposit: (address: string, amount: string) => Promise<string>
  readonly close: () => Promise<void>
}

export const startUtxoWorld = async (): Promise<UtxoWorld> => {
  const h = await startHarness()
  const server = await listen(
    createApp(h.sim, { clientIp: () => "127.0.0.1", log: { error: () => {}, info: () => {} }, authFailureLimit: false }),
  )
  const connection: Client = strictConnection(server.url)
  const creds = await createKey(h, { apiVersion: "2026-03-20" })
  const vault = (await h.admin("POST", "/_sim/vaults", { name: "UTXO vault", type: "test", backuped: true })).body.id as string
  await h.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 1 })
  const call = async (method: string, path: string, item?: unknown) => {
    const body = item === undefined ? "" : JSON.stringify({ data: { item } })
    const headers = signRequest(creds, { method, url: path, body })
    const a = await send(connection, { method, path, headers, ...(method !== "GET" ? { body } : {}) })
    return { status: a.status, body: JSON.parse(a.text) }
  }
  const head = () => Effect.runPromise(h.sim.store.headPosition)
  const eventsSince = async (from: bigint) => {
    const r = await h.admin("GET", `/_sim/events?fromPosition=${from + 1n}&limit=1000`)
    return r.body.events.map((e: { type: string; data: unknown }) => ({ type: e.type, data: e.data }))
  }
  const account = async (name: string) => {
    const r = await call("POST", `/vaults/${vault}/vault-account`, { name, color: "#00AA00", isHiddenInDashboard: false })
    if (r.status !== 201) throw new Error(JSON.stringify(r.body))
    return r.body.data.item.vaultAccountId as string
  }
  const btcAddress = async (vaultAccountId: string, label = "btc") => {
    const r = await call("PUT", `/vaults/${vault}/vault-accounts/${vaultAccountId}/add-asset`, { assetId: BTC, label })
    if (r.status !== 200) throw new Error(JSON.stringify(r.body))
    return r.body.data.item.address as string
  }
  const deposit = async (address: string, amount: string) => {
    const r = await h.admin("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: BTC, amount })
    if (r.status !== 201) throw new Error(JSON.stringify(r.body))
    return r.body.transactionId as string
  }
  return {
    h,
    creds,
    vault,
    call,
    admin: h.admin,
    eventsSince,
    head,
    account,
    btcAddress,
    deposit,
    close: async () => {
      await connection.close()
      await server.close()
      await h.close()
    },
  }
}
