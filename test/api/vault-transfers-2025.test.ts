// The 2025-09-23 vault-level paths over a socket (2026 diff rows #17–#19): #17 widened to EVM, tron and solana coins
// with one listed sender, `note` required, `maxFee`; the vault-level token path; which older paths each version has.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient } from "../../src/client/index.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let v25: CustodyClient
let v24: CustodyClient
let snapshot: string

beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  v25 = new CustodyClient({ baseUrl: server.url, credentials: await createKey(h, { apiVersion: "2025-09-23" }) })
  v24 = new CustodyClient({ baseUrl: server.url, credentials: h.creds })
  snapshot = (await h.admin("POST", "/_sim/snapshots")).body.id
})
beforeEach(async () => {
  await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`)
})
afterAll(async () => {
  await server.close()
  await h.close()
})

const ETH_TO = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const SOL_TO = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const BTC_TO = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"

const funded = async (blockchain: string, network: string, holdings: Record<string, string>) => {
  const acct = (
    await v24.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId as string
  await h.admin("PUT", `/_sim/chains/${blockchain}/${network}/mining`, { mode: "auto", confirmations: 1 })
  let address = ""
  for (const [symbol, amount] of Object.entries(holdings)) {
    const item =
      address === ""
        ? { assetId: assetId(blockchain, network, symbol), label: "w" }
        : { assetId: assetId(blockchain, network, symbol), address }
    address = (await v24.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item.address
    expect(
      (await h.admin("POST", "/_sim/deposits", { blockchain, network, address, assetId: assetId(blockchain, network, symbol), amount }))
        .status,
    ).toBe(201)
  }
  return { acct, address }
}

const coin = (chain: string, item: Record<string, unknown>, client = v25) =>
  client.call<any>("POST", `/vaults/${h.testVaultId}/${chain}/transaction-requests`, { item })
const token = (chain: string, item: Record<string, unknown>, client = v25) =>
  client.call<any>("POST", `/vaults/${h.testVaultId}/${chain}/token-transaction-requests`, { item })
const total = async (blockchain: string, address: string, symbol: string) =>
  (await v24.call<any>("GET", `/vaults/${h.testVaultId}/${blockchain}/addresses/${address}/assets`)).body.data.item.assets.find(
    (a: any) => a.symbol === symbol,
  ).assetData.totalAmount as string
const contract = (blockchain: string, network: string, symbol: string) =>
  v24
    .call<any>("GET", "/supported-assets", { query: { assetUnit: symbol, blockchain, networkType: "test" } })
    .then((r) => r.body.data.items.find((a: any) => a.network === network).tokenData.contractAddress as string)

describe("#17 at 2025-09-23: coins on EVM, tron, solana and UTXO chains", () => {
  it("an EVM coin from the listed sender: 201 with senders, then mined: 1 − 0.3 − 21,000 gas × 1 gwei", async () => {
    const { address } = await funded("ethereum", "sepolia", { ETH: "1" })
    const r = await coin("ethereum/sepolia", {
      senders: [{ address }],
      recipients: [{ address: ETH_TO, amount: "0.3" }],
      feePriority: "slow",
      note: "n",
      maxFee: "0.001",
    })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toEqual({
      feePriority: "slow",
      recipients: [{ address: ETH_TO, amount: "0.3" }],
      senders: [{ address }],
      totalTransactionAmount: "0.3",
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      note: "n",
      maxFee: "0.001",
    })
    expect(await total("ethereum", address, "ETH")).toBe("0.699979")
  })

  it("tron and solana take no feePriority", async () => {
    const t = await funded("tron", "nile", { TRX: "20" })
    expect(
      (await coin("tron/nile", { senders: [{ address: t.address }], recipients: [{ address: TRON_TO, amount: "2" }], note: "n" })).status,
    ).toBe(201)
    expect(await total("tron", t.address, "TRX")).toBe("18")
    const s = await funded("solana", "devnet", { SOL: "1" })
    expect(
      (await coin("solana/devnet", { senders: [{ address: s.address }], recipients: [{ address: SOL_TO, amount: "0.5" }], note: "n" }))
        .status,
    ).toBe(201)
    expect(await total("solana", s.address, "SOL")).toBe("0.499995")
  })

  it("UTXO from the whole vault, with a fee ceiling: 400 MAX_FEE_EXCEEDED below the selection's fee", async () => {
    await funded("bitcoin", "testnet", { BTC: "0.01" })
    const item = { recipients: [{ address: BTC_TO, amount: "0.001" }], feePriority: "standard", note: "n" }
    // One input, a recipient and change: (11 + 68 + 2 × 31) vbytes × 2 sat/vB = 282 sat.
    const low = await coin("bitcoin/testnet", { ...item, maxFee: "0.00000281" })
    expect([low.status, low.body.error?.code]).toEqual([400, "MAX_FEE_EXCEEDED"])
    const ok = await coin("bitcoin/testnet", { ...item, maxFee: "0.00000282", prepareStrategy: "minimize-dust" })
    expect([ok.status, ok.body.data?.item.senders]).toEqual([201, undefined])
  })

  it("refuses what the widened body does not allow", async () => {
    const { address } = await funded("ethereum", "sepolia", { ETH: "1" })
    const ok = { senders: [{ address }], recipients: [{ address: ETH_TO, amount: "0.1" }], feePriority: "slow", note: "n" }
    const without = (k: string) => Object.fromEntries(Object.entries(ok).filter(([key]) => key !== k))
    const before = h.sim.models.position
    const cases: Array<[string, Promise<any>, number, string]> = [
      ["no note", coin("ethereum/sepolia", without("note")), 409, "missing_required_attributes"],
      ["no senders on EVM", coin("ethereum/sepolia", without("senders")), 409, "missing_required_attributes"],
      ["no feePriority on EVM", coin("ethereum/sepolia", without("feePriority")), 409, "missing_required_attributes"],
      ["two senders", coin("ethereum/sepolia", { ...ok, senders: [{ address }, { address }] }), 400, "invalid_data"],
      ["two recipients on EVM", coin("ethereum/sepolia", { ...ok, recipients: [...ok.recipients, ...ok.recipients] }), 400, "invalid_data"],
      ["prepareStrategy on EVM", coin("ethereum/sepolia", { ...ok, prepareStrategy: "optimize-size" }), 400, "invalid_data"],
      ["senders on UTXO", coin("bitcoin/testnet", { ...ok, recipients: [{ address: BTC_TO, amount: "0.1" }] }), 400, "invalid_data"],
      ["xrp", coin("xrp/testnet", ok), 400, "invalid_data"],
      ["a mainnet", coin("ethereum/mainnet", ok), 400, "network_not_allowed_for_vault"],
      ["a malformed maxFee", coin("ethereum/sepolia", { ...ok, maxFee: "abc" }), 400, "invalid_data"],
      ["a sender outside the vault", coin("ethereum/sepolia", { ...ok, senders: [{ address: ETH_TO }] }), 404, "resource_not_found"],
      [
        "insufficient funds",
        coin("ethereum/sepolia", { ...ok, recipients: [{ address: ETH_TO, amount: "1" }] }),
        400,
        "insufficient_balance",
      ],
    ]
    for (const [what, answer, status, code] of cases) {
      const r = await answer
      expect([what, r.status, r.body.error?.code]).toEqual([what, status, code])
    }
    expect(h.sim.models.position).toBe(before)
  })
})

describe("POST /vaults/{vaultId}/{blockchain}/{network}/token-transaction-requests (2025-09-23)", () => {
  it("sends an ERC-20 from the sender named in the body, the fee in ETH; a TRC-20 without feePriority", async () => {
    const e = await funded("ethereum", "sepolia", { ETH: "1", USDC: "100" })
    const usdc = await contract("ethereum", "sepolia", "USDC")
    const r = await token("ethereum/sepolia", {
      amount: "12.5",
      contractAddress: usdc,
      senderAddress: e.address,
      recipientAddress: ETH_TO,
      feePriority: "standard",
      note: "t",
    })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toEqual({
      feePriority: "standard",
      recipients: [{ address: ETH_TO, amount: "12.5" }],
      senders: { address: e.address },
      tokenTypeSpecificData: { contractAddress: usdc },
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      note: "t",
    })
    expect([await total("ethereum", e.address, "USDC"), await total("ethereum", e.address, "ETH")]).toEqual(["87.5", "0.99987"])
    const t = await funded("tron", "nile", { TRX: "100", USDT: "10" })
    const usdt = await contract("tron", "nile", "USDT")
    expect(
      (await token("tron/nile", { amount: "1", contractAddress: usdt, senderAddress: t.address, recipientAddress: TRON_TO, note: "t" }))
        .status,
    ).toBe(201)
    expect(await total("tron", t.address, "USDT")).toBe("9")
  })

  it("refuses an unknown contract, a missing feePriority on EVM, a UTXO chain and a fee over maxFee", async () => {
    const e = await funded("ethereum", "sepolia", { ETH: "1", USDC: "100" })
    const usdc = await contract("ethereum", "sepolia", "USDC")
    const ok = { amount: "1", contractAddress: usdc, senderAddress: e.address, recipientAddress: ETH_TO, feePriority: "fast", note: "t" }
    const cases: Array<[string, Promise<any>, number, string]> = [
      ["unknown contract", token("ethereum/sepolia", { ...ok, contractAddress: ETH_TO }), 400, "invalid_data"],
      ["no feePriority", token("ethereum/sepolia", { ...ok, feePriority: undefined }), 409, "missing_required_attributes"],
      ["no note", token("ethereum/sepolia", { ...ok, note: undefined }), 409, "missing_required_attributes"],
      ["a UTXO chain", token("bitcoin/testnet", ok), 400, "invalid_data"],
      ["maxFee below 65,000 gas × 5 gwei", token("ethereum/sepolia", { ...ok, maxFee: "0.0003" }), 400, "MAX_FEE_EXCEEDED"],
    ]
    for (const [what, answer, status, code] of cases) {
      const r = await answer
      expect([what, r.status, r.body.error?.code]).toEqual([what, status, code])
    }
  })
})

describe("which transfer paths each version has", () => {
  it("2025-09-23 lacks #18–#21, 2024-05-09 the vault-level token path, 2026-03-20 both vault-level paths", async () => {
    const { address } = await funded("ethereum", "sepolia", { ETH: "1" })
    const v26 = new CustodyClient({ baseUrl: server.url, credentials: await createKey(h, { apiVersion: "2026-03-20" }) })
    const code = async (p: Promise<any>) => (await p).body.error?.code
    expect(
      await code(
        v25.call("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
          item: { amount: "0.1", feePriority: "slow", recipientAddress: ETH_TO },
        }),
      ),
    ).toBe("uri_not_found")
    expect(
      await code(
        v25.call("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/feeless-transaction-requests`, {
          item: { amount: "1", recipientAddress: TRON_TO },
        }),
      ),
    ).toBe("uri_not_found")
    expect(await code(token("ethereum/sepolia", { amount: "1" }, v24))).toBe("uri_not_found")
    expect(await code(token("ethereum/sepolia", { amount: "1" }, v26))).toBe("uri_not_found")
    expect(await code(coin("bitcoin/testnet", { recipients: [] }, v26))).toBe("uri_not_found")
    const first = await coin("ethereum/sepolia", { feePriority: "slow", recipients: [{ address: ETH_TO, amount: "0.1" }] }, v24)
    expect([first.status, first.body.error?.code]).toEqual([400, "invalid_data"])
  })
})
