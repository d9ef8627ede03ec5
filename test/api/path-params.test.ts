// An operation's path parameters are kept per request path (operation.ts): each answer must still be the one its own
// path asks for, with the parameters decoded as Hono decodes them, however the paths alternate or how many there are.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/signing.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"

let h: Harness
let at2026: Credentials
let addresses: ReadonlyArray<string>

const ETH = assetId("ethereum", "sepolia", "ETH")

beforeAll(async () => {
  h = await startHarness()
  at2026 = await createKey(h, { apiVersion: "2026-03-20", rateLimit: { perSecond: 100_000, burst: 100_000 } })
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const made: Array<string> = []
  for (const [name, amount] of [
    ["a", "7"],
    ["b", "11"],
  ] as const) {
    const acct = (
      await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
        item: { name, color: "#000000", isHiddenInDashboard: false },
      })
    ).body.data.item.vaultAccountId
    const address = (
      await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: ETH, label: name } })
    ).body.data.item.address as string
    await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount })
    made.push(address)
  }
  addresses = made
})
afterAll(() => h.close())

const balance = async (url: string) => {
  const res = await h.raw({ method: "GET", url, creds: at2026 })
  const body = res.body as {
    data?: { items?: ReadonlyArray<{ assetId: string; assetData: { totalAmount: string } }> }
    error?: { code: string }
  }
  return { status: res.status, totals: body.data?.items?.map((i) => `${i.assetId}=${i.assetData.totalAmount}`), code: body.error?.code }
}

/** Each character percent-encoded: Hono decodes the path and then each parameter. */
const encoded = (s: string) => [...s].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`).join("")

// A well-formed vault id that names no vault: the key may not touch it (as the service answers).
const UNKNOWN_VAULT = [403, "api_key_not_allowed_for_wallet"]

describe("path parameters", () => {
  it("answer each address balance read for its own vault and address, in any order, spelled in any case or percent-encoded", async () => {
    const [a, b] = addresses as [string, string]
    const reads: ReadonlyArray<readonly [string, Awaited<ReturnType<typeof balance>>]> = [
      [`/vaults/${h.testVaultId}/addresses/${a}/balance`, { status: 200, totals: [`${ETH}=7`], code: undefined }],
      [`/vaults/${h.testVaultId}/addresses/${b}/balance`, { status: 200, totals: [`${ETH}=11`], code: undefined }],
      [`/vaults/${h.testVaultId}/addresses/${a.toLowerCase()}/balance`, { status: 200, totals: [`${ETH}=7`], code: undefined }],
      [`/vaults/${h.testVaultId}/addresses/${encoded(b)}/balance`, { status: 200, totals: [`${ETH}=11`], code: undefined }],
      [`/vaults/${encoded(h.testVaultId)}/addresses/${a}/balance`, { status: 200, totals: [`${ETH}=7`], code: undefined }],
      [`/vaults/${h.mainVaultId}/addresses/${a}/balance`, { status: 404, totals: undefined, code: "resource_not_found" }],
      [
        `/vaults/${h.testVaultId}/addresses/0x0000000000000000000000000000000000000001/balance`,
        { status: 404, totals: undefined, code: "resource_not_found" },
      ],
    ]
    const position = h.sim.models.position
    for (const order of [reads, [...reads].reverse(), reads])
      for (const [url, expected] of order) expect(await balance(url), url).toEqual(expected)
    expect(h.sim.models.position).toBe(position)
  })

  it("stay right past the number of paths an operation keeps", async () => {
    const [a] = addresses as [string]
    // Unknown vault ids fill the operation's kept paths (1,024); the real one is asked before, between and after.
    const real = `/vaults/${h.testVaultId}/addresses/${a}/balance`
    expect(await balance(real)).toEqual({ status: 200, totals: [`${ETH}=7`], code: undefined })
    for (let i = 0; i < 1100; i++) {
      const vaultId = i.toString(16).padStart(24, "0")
      const r = await balance(`/vaults/${vaultId}/addresses/${a}/balance`)
      expect([r.status, r.code]).toEqual(UNKNOWN_VAULT)
      if (i % 500 === 0) expect(await balance(real)).toEqual({ status: 200, totals: [`${ETH}=7`], code: undefined })
    }
    expect(await balance(real)).toEqual({ status: 200, totals: [`${ETH}=7`], code: undefined })
  })
})
