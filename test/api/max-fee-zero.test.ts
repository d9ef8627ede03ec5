// `maxFee: "0"` is a real fee ceiling for every transfer kind that takes one (README "Decisions"): never refused as
// malformed; the request is created when mining it now costs nothing (a tron transfer inside its free bandwidth), and
// is 400 MAX_FEE_EXCEEDED, writing nothing, when it would cost more. A batch takes no maxFee at all (409).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetId } from "../support/catalogue.js"
import { EXTERNAL_ETH, startSponsorWorld, type SponsorWorld } from "../support/sponsor-world.js"
import { BTC, EXTERNAL_BTC, startUtxoWorld, type UtxoWorld } from "../support/utxo-world.js"

const TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const ETH = assetId("ethereum", "sepolia", "ETH")

describe('maxFee "0" on account-based transfers', () => {
  let w: SponsorWorld
  beforeAll(async () => {
    w = await startSponsorWorld()
  })
  afterAll(async () => w?.close())

  const request = (kind: string) => `/vaults/${w.vaultId}/transaction-requests/${kind}`
  /** The answer's status and code, and whether the log stayed as it was. */
  const outcome = async (kind: string, item: Record<string, unknown>) => {
    const before = w.h.sim.models.position
    const r = await w.post(request(kind), item)
    return { status: r.status, code: r.body.error?.code, attributes: r.body.error?.details?.map((d: any) => d.attribute), r, before }
  }

  it("single-transfer on tron inside the free bandwidth: 201, the ceiling echoed as 0", async () => {
    const { acct, address } = await w.account("tron", "nile", { TRX: "10" })
    const item = { vaultAccountId: acct, assetId: assetId("tron", "nile", "TRX"), fromAddress: address, toAddress: TRON_TO, amount: "1" }
    const { status, r } = await outcome("single-transfer", { ...item, note: "n", maxFee: "0" })
    expect([status, r.body.data?.item.maxFee]).toEqual([201, "0"])
  })

  it("single-transfer on an EVM chain: 400 MAX_FEE_EXCEEDED on maxFee, nothing written", async () => {
    const { acct, address } = await w.account("ethereum", "sepolia", { ETH: "1" })
    const item = { vaultAccountId: acct, assetId: ETH, fromAddress: address, toAddress: EXTERNAL_ETH, amount: "0.1", feePriority: "slow" }
    const o = await outcome("single-transfer", { ...item, note: "n", maxFee: "0" })
    expect([o.status, o.code, o.attributes]).toEqual([400, "MAX_FEE_EXCEEDED", ["maxFee"]])
    expect(w.h.sim.models.position).toBe(o.before)
  })

  it("gas-sponsorship-transfer: 400 MAX_FEE_EXCEEDED on maxFee (before, it was refused as invalid_data), nothing written", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const o = await outcome("gas-sponsorship-transfer", {
      vaultAccountId: sender.acct,
      assetId: ETH,
      fromAddress: sender.address,
      toAddress: EXTERNAL_ETH,
      amount: "0.1",
      feePayer: payer.address,
      feePriority: "fast",
      note: "n",
      maxFee: "0",
    })
    expect([o.status, o.code, o.attributes]).toEqual([400, "MAX_FEE_EXCEEDED", ["maxFee"]])
    expect(w.h.sim.models.position).toBe(o.before)
  })

  it("a malformed maxFee is 400 invalid_data with one wording for single and sponsored transfers", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const common = { vaultAccountId: sender.acct, assetId: ETH, fromAddress: sender.address, toAddress: EXTERNAL_ETH, amount: "0.1" }
    const single = await w.post(request("single-transfer"), { ...common, feePriority: "slow", note: "n", maxFee: "-1" })
    const sponsored = await w.post(request("gas-sponsorship-transfer"), { ...common, feePayer: payer.address, note: "n", maxFee: "-1" })
    const detail = { attribute: "maxFee", message: "must be a non-negative decimal string of ETH with at most 18 decimals" }
    expect([single.status, single.body.error.details]).toEqual([400, [detail]])
    expect([sponsored.status, sponsored.body.error.details]).toEqual([400, [detail]])
  })

  it("batch takes no maxFee: 409 extra_body_attributes naming it", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const o = await outcome("batch", {
      feePayer: { address: payer.address, assetId: ETH },
      feePriority: "fast",
      note: "n",
      senderAddress: sender.address,
      vaultAccountId: sender.acct,
      recipients: [{ address: EXTERNAL_ETH, amount: "0.01", assetId: ETH }],
      maxFee: "0",
    })
    expect([o.status, o.code, o.attributes]).toEqual([409, "extra_body_attributes", ["maxFee"]])
  })
})

describe('maxFee "0" on UTXO transfers', () => {
  let w: UtxoWorld
  let alice: string
  let utxo: string
  beforeAll(async () => {
    w = await startUtxoWorld()
    alice = await w.account("alice")
    utxo = `${await w.deposit(await w.btcAddress(alice), "0.001")}:0`
  })
  afterAll(async () => w?.close())

  const refusedAsExceeded = async (kind: string, item: Record<string, unknown>) => {
    const before = await w.head()
    const r = await w.call("POST", `/vaults/${w.vault}/transaction-requests/${kind}`, item)
    expect([kind, r.status, r.body.error?.code, r.body.error?.details?.[0]?.attribute]).toEqual([kind, 400, "MAX_FEE_EXCEEDED", "maxFee"])
    expect(await w.head()).toBe(before)
  }
  const common = {
    assetId: BTC,
    feePriority: "standard",
    note: "n",
    recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }],
    maxFee: "0",
  }

  it("multiple-transfer: 400 MAX_FEE_EXCEEDED, nothing written", async () => {
    await refusedAsExceeded("multiple-transfer", { ...common, vaultAccountId: alice, prepareStrategy: "minimize_dust" })
  })

  it("utxo-transfer and its dry run: 400 MAX_FEE_EXCEEDED, nothing written", async () => {
    await refusedAsExceeded("utxo-transfer", { ...common, senders: [{ utxoId: utxo }] })
    await refusedAsExceeded("utxo-transfer/validate", { ...common, senders: [{ utxoId: utxo }] })
  })
})
