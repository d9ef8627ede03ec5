// The simulator the examples are taken from: in this process, on a memory store, a fixed seed and a frozen clock,
// one key pinned to the version being shown. Every call is signed as a client signs it; the first answer of each
// operation is kept with the body that asked for it, and one real refusal beside it.
import { CustodyClient } from "../../src/client/index.js"
import type { ApiVersion } from "../../src/domain/api-key/index.js"
import { assetsOf } from "../../src/domain/chains/index.js"
import { startInProcess } from "../../src/testing/in-process.js"
import type { CapturedAnswer, OperationExample } from "../../src/api/openapi/examples.js"

export const SEED = "openapi-examples"
/** 2026-01-01T00:00:00Z, as the simulator starts by default. */
export const START = Date.UTC(2026, 0, 1)

export const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
export const EXTERNAL_BTC = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
export const EXTERNAL_TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
export const XRP_CLASSIC = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"

const asset = (blockchain: string, network: string, symbol: string) => {
  const a = assetsOf({ blockchain: blockchain as never, network: network as never }).find((x) => x.symbol === symbol)
  if (a === undefined) throw new Error(`no ${symbol} on ${blockchain}/${network}`)
  return a
}
export const assetId = (blockchain: string, network: string, symbol: string): string => asset(blockchain, network, symbol).id
/** A token's contract address in the catalogue. */
export const contractOf = (blockchain: string, network: string, symbol: string): string => {
  const a = asset(blockchain, network, symbol)
  if (a.type !== "TOKEN") throw new Error(`${symbol} is no token`)
  return a.contract
}

type Method = "GET" | "POST" | "PUT"
/** An answer's data, of any shape (the scenario reads it as a client script does). */
type Item = any

export interface World {
  readonly version: ApiVersion
  readonly vaultId: string
  /** Calls `operation` (its answer must be a success) and returns its `data`; the first answer is the example. */
  readonly call: (operation: string, method: Method, path: string, item?: unknown, query?: Record<string, string>) => Promise<Item>
  readonly admin: (method: "GET" | "POST" | "PUT", path: string, body?: unknown) => Promise<Item>
  /** A new account with an address on the chain holding each asset (decimal amounts), deposits confirmed. */
  readonly funded: (
    blockchain: string,
    network: string,
    funds: Readonly<Record<string, string>>,
  ) => Promise<{ acct: string; address: string; deposits: ReadonlyArray<string> }>
  readonly examples: () => Record<string, OperationExample>
  readonly close: () => Promise<void>
}

const answerOf = (status: number, body: unknown): CapturedAnswer => ({ status, body })

export const startWorld = async (version: ApiVersion): Promise<World> => {
  const p = await startInProcess({
    seed: SEED,
    frozenAt: START,
    webhooks: false,
    // The signatures' wall clock stands still too: requests are signed at the simulated start.
    app: { wallNow: () => START },
    fixture: {
      vaults: [
        { name: "Operations", type: "test", color: "#2E7D32", backuped: true },
        { name: "Treasury", type: "main", color: "#1565C0", backuped: true },
      ],
      apiKeys: [{ name: "examples", apiVersion: version, rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
    },
  })
  // Signed at the simulated start, so that the signature headers do not change from one build to the next.
  const client = new CustodyClient({
    baseUrl: p.baseUrl,
    credentials: p.credentials!,
    fetch: (r) => p.fetch(r),
    now: () => Math.floor(START / 1000),
  })
  const examples = new Map<string, OperationExample>()
  const admin = async (method: "GET" | "POST" | "PUT", path: string, body?: unknown) => {
    const r = await p.admin(method, path, body)
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  /** A real refusal of the same operation: the body with an attribute it does not take, or a malformed x-sim-as-of. */
  const refusal = async (method: Method, path: string, item: unknown, query: Record<string, string> | undefined) => {
    const r =
      method === "GET"
        ? await client.call(method, path, { ...(query !== undefined ? { query } : {}), headers: { "x-sim-as-of": "yesterday" } })
        : await client.call(method, path, { item: { ...(item as object), unknownAttribute: true } })
    if (r.status < 400) throw new Error(`${method} ${path}: the refusal was answered ${r.status}`)
    return answerOf(r.status, r.body)
  }
  const call: World["call"] = async (operation, method, path, item, query) => {
    const r = await client.call<Item>(method, path, {
      ...(query !== undefined ? { query } : {}),
      ...(item !== undefined ? { item } : {}),
    })
    if (!r.ok) throw new Error(`${operation} ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
    if (!examples.has(operation)) {
      const request = method === "GET" ? undefined : { data: { item: item ?? {} } }
      examples.set(operation, {
        ...(request !== undefined ? { request } : {}),
        answer: answerOf(r.status, r.body),
        error: await refusal(method, path, item ?? {}, query),
      })
    }
    return r.body.data
  }
  const mining = new Set<string>()
  const funded: World["funded"] = async (blockchain, network, funds) => {
    if (!mining.has(`${blockchain}/${network}`)) {
      await admin("PUT", `/_sim/chains/${blockchain}/${network}/mining`, { mode: "auto", confirmations: 1 })
      mining.add(`${blockchain}/${network}`)
    }
    const acct = (
      await call("createVaultAccount", "POST", `/vaults/${p.testVaultId}/vault-account`, {
        name: `${blockchain} payouts`,
        color: "#00AA00",
        isHiddenInDashboard: false,
      })
    ).item.vaultAccountId as string
    let address: string | undefined
    const deposits: Array<string> = []
    for (const [symbol, amount] of Object.entries(funds)) {
      const id = assetId(blockchain, network, symbol)
      const item = address === undefined ? { assetId: id, label: `${symbol} deposits` } : { assetId: id, address }
      address = (await call("addAssetToVaultAccount", "PUT", `/vaults/${p.testVaultId}/vault-accounts/${acct}/add-asset`, item)).item
        .address as string
      if (amount !== "0")
        deposits.push((await admin("POST", "/_sim/deposits", { blockchain, network, address, assetId: id, amount })).transactionId)
    }
    return { acct, address: address!, deposits }
  }
  return {
    version,
    vaultId: p.testVaultId,
    call,
    admin,
    funded,
    examples: () => Object.fromEntries(examples),
    close: p.close,
  }
}
