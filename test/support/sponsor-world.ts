// A simulator served on 127.0.0.1 with a 2026-03-20 key, funded EVM addresses to send from and to pay gas with,
// and a strict client (undici) for the sponsored-transfer endpoints.
import { createApp } from "../../src/api/app.js"
import type { Credentials } from "../../src/client/index.js"
import { signRequest } from "../../src/client/signing.js"
import type { Client } from "undici"
import { assetId } from "./catalogue.js"
import { createKey, startHarness, type Harness } from "./harness.js"
import { listen } from "./server.js"
import { send, strictConnection } from "./strict-http.js"

export const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

export interface SponsorWorld {
  readonly h: Harness
  readonly creds: Credentials
  readonly vaultId: string
  /** POST a `data.item` body over the socket, signed with the 2026-03-20 key. */
  readonly post: (path: string, item: unknown) => Promise<{ status: number; body: any }>
  readonly get: (path: string, headers?: Record<string, string>) => Promise<{ status: number; body: any }>
  /** A new vault account with an address holding the given assets, each funded (decimal amounts) and confirmed. */
  readonly account: (
    blockchain: string,
    network: string,
    funds: Readonly<Record<string, string>>,
  ) => Promise<{ acct: string; address: string }>
  /** The base-unit balance of an address in one asset, from the read model. */
  readonly balance: (
    blockchain: string,
    network: string,
    address: string,
    symbol: string,
  ) => { total: bigint; blocked: bigint; available: bigint }
  readonly eventsSince: (position: bigint) => Promise<Array<{ type: string; data: any; position: number }>>
  readonly close: () => Promise<void>
}

export const startSponsorWorld = async (): Promise<SponsorWorld> => {
  const h = await startHarness()
  const creds = await createKey(h, { apiVersion: "2026-03-20" })
  const server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  const client: Client = strictConnection(server.url)
  const signed = async (method: string, path: string, body?: string, extra: Record<string, string> = {}) => {
    const headers = signRequest(creds, { method, url: path, body: body ?? "" })
    const a = await send(client, {
      method,
      path,
      headers: { ...headers, ...extra, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body } : {}),
    })
    return { status: a.status, body: JSON.parse(a.text) }
  }
  const mining = new Set<string>()
  return {
    h,
    creds,
    vaultId: h.testVaultId,
    post: (path, item) => signed("POST", path, JSON.stringify({ data: { item } })),
    get: (path, headers) => signed("GET", path, undefined, headers),
    account: async (blockchain, network, funds) => {
      if (!mining.has(`${blockchain}.${network}`)) {
        await h.admin("PUT", `/_sim/chains/${blockchain}/${network}/mining`, { mode: "auto", confirmations: 1 })
        mining.add(`${blockchain}.${network}`)
      }
      const acct = (
        await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
          item: { name: "a", color: "#000000", isHiddenInDashboard: false },
        })
      ).body.data.item.vaultAccountId as string
      let address: string | undefined
      for (const [symbol, amount] of Object.entries(funds)) {
        const item =
          address === undefined
            ? { assetId: assetId(blockchain, network, symbol), label: "w" }
            : { assetId: assetId(blockchain, network, symbol), address }
        const added = await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })
        if (added.status !== 201 && added.status !== 200) throw new Error(`add-asset: ${JSON.stringify(added.body)}`)
        address = added.body.data.item.address as string
        if (amount !== "0") {
          const dep = await h.admin("POST", "/_sim/deposits", {
            blockchain,
            network,
            address,
            assetId: assetId(blockchain, network, symbol),
            amount,
          })
          if (dep.status !== 201) throw new Error(`deposit: ${JSON.stringify(dep.body)}`)
        }
      }
      return { acct, address: address! }
    },
    balance: (blockchain, network, address, symbol) => {
      const b = h.sim.models.holdings.balance(blockchain, network, address, assetId(blockchain, network, symbol), undefined)
      return { total: b.total, blocked: b.blocked, available: b.available }
    },
    eventsSince: async (position) => {
      const r = await h.admin<{ events: Array<{ type: string; data: any; position: number }> }>(
        "GET",
        `/_sim/events?fromPosition=${position + 1n}&limit=10000`,
      )
      return r.body.events
    },
    close: async () => {
      await client.close()
      await server.close()
      await h.close()
    },
  }
}
