// Every refusal of utxo-transfer and validate over a socket: status, code, the attribute named, and nothing written.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetId } from "../../support/catalogue.js"
import { createKey } from "../../support/harness.js"
import { BTC, EXTERNAL_BTC, EXTERNAL_BTC_2, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
let a: string
let b: string
let ua: string
let ub: string
beforeAll(async () => {
  w = await startUtxoWorld()
  const alice = await w.account("alice")
  a = await w.btcAddress(alice)
  b = await w.btcAddress(await w.account("bob"))
  ua = `${await w.deposit(a, "0.001")}:0`
  ub = `${await w.deposit(b, "0.0005")}:0`
})
afterAll(async () => w.close())

const ok = { assetId: BTC, feePriority: "standard", note: "n", recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] }
const paths = ["utxo-transfer", "utxo-transfer/validate"]

/** Both endpoints refuse the same body the same way, and write nothing. */
const refused = async (item: Record<string, unknown>, status: number, code: string, attribute?: string) => {
  for (const p of paths) {
    const before = await w.head()
    const r = await w.call("POST", `/vaults/${w.vault}/transaction-requests/${p}`, item)
    expect([p, r.status, r.body.error?.code]).toEqual([p, status, code])
    if (attribute !== undefined) expect(r.body.error.details.map((d: { attribute: string }) => d.attribute)).toContain(attribute)
    expect(r.body).toMatchObject({ apiVersion: "2026-03-20", requestId: expect.any(String) })
    expect(await w.head()).toBe(before)
  }
}

describe("utxo-transfer refusals", () => {
  it("missing and unknown attributes: 409", async () => {
    await refused(
      { assetId: BTC, feePriority: "standard", note: "n", recipients: ok.recipients },
      409,
      "missing_required_attributes",
      "senders",
    )
    await refused({ ...ok, senders: [{ utxoId: ua }], fromAddress: a }, 409, "extra_body_attributes", "fromAddress")
  })

  it("malformed values: 400 invalid_data naming the attribute", async () => {
    const s = [{ utxoId: ua }]
    await refused({ ...ok, senders: s, recipients: [] }, 400, "invalid_data", "recipients")
    await refused(
      { ...ok, senders: s, recipients: Array.from({ length: 151 }, () => ({ address: EXTERNAL_BTC, amount: "0.00001" })) },
      400,
      "invalid_data",
      "recipients",
    )
    await refused({ ...ok, senders: [] }, 400, "invalid_data", "senders")
    await refused({ ...ok, senders: [{ utxoId: ua }, { utxoId: ua }] }, 400, "invalid_data", "senders")
    await refused({ ...ok, senders: s, note: "x".repeat(251) }, 400, "invalid_data", "note")
    await refused({ ...ok, senders: s, feePriority: "FAST" }, 400, "invalid_data", "feePriority")
    await refused(
      { ...ok, senders: s, recipients: [{ address: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e", amount: "0.1" }] },
      400,
      "invalid_data",
      "recipients[0].address",
    )
    await refused(
      { ...ok, senders: s, recipients: [{ address: EXTERNAL_BTC, amount: "0.000000001" }] },
      400,
      "invalid_data",
      "recipients[0].amount",
    )
    await refused({ ...ok, senders: s, maxFee: "-1" }, 400, "invalid_data", "maxFee")
    await refused({ ...ok, senders: s, gross: "yes" }, 400, "invalid_data", "gross")
  })

  it("changeData xor feePayer, feePayer excludes gross, changeData holds exactly one target", async () => {
    const s = [{ utxoId: ua }]
    await refused({ ...ok, senders: s, changeData: { address: a }, feePayer: b }, 400, "invalid_data", "feePayer")
    await refused({ ...ok, senders: s, feePayer: b, gross: true }, 400, "invalid_data", "gross")
    await refused({ ...ok, senders: s, changeData: { address: a, vaultAccountId: w.vault } }, 400, "invalid_data", "changeData")
    await refused({ ...ok, senders: s, changeData: {} }, 400, "invalid_data", "changeData")
    await refused({ ...ok, senders: s, changeData: { address: EXTERNAL_BTC } }, 400, "invalid_data", "changeData.address")
    await refused({ ...ok, senders: s, changeData: { vaultAccountId: "000000000000000000000000" } }, 404, "resource_not_found")
    await refused({ ...ok, senders: s, feePayer: EXTERNAL_BTC }, 404, "resource_not_found", "feePayer")
  })

  it("the asset: unknown 404, not a UTXO coin 400, a mainnet in a test vault 400 network_not_allowed_for_vault", async () => {
    const s = [{ utxoId: ua }]
    await refused({ ...ok, senders: s, assetId: "nope" }, 404, "resource_not_found")
    await refused({ ...ok, senders: s, assetId: assetId("ethereum", "sepolia", "ETH") }, 400, "invalid_data", "assetId")
    await refused({ ...ok, senders: s, assetId: assetId("bitcoin", "mainnet", "BTC") }, 400, "network_not_allowed_for_vault")
  })

  it("the inputs: unknown 404, another chain's 404, too little to pay 400 insufficient_balance, a fee above maxFee 400 MAX_FEE_EXCEEDED", async () => {
    await refused({ ...ok, senders: [{ utxoId: `${"ab".repeat(32)}:0` }] }, 404, "resource_not_found", "senders")
    await refused(
      {
        ...ok,
        assetId: assetId("litecoin", "testnet", "LTC"),
        recipients: [{ address: EXTERNAL_BTC_2, amount: "0.0001" }],
        senders: [{ utxoId: ua }],
      },
      404,
      "resource_not_found",
      "senders",
    )
    await refused(
      { ...ok, senders: [{ utxoId: ub }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0005" }] },
      400,
      "insufficient_balance",
    )
    await refused({ ...ok, senders: [{ utxoId: ua }], maxFee: "0.000001" }, 400, "MAX_FEE_EXCEEDED", "maxFee")
    await refused(
      { ...ok, senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.00000001" }], gross: true },
      400,
      "invalid_data",
      "recipients[0].amount",
    )
  })

  it("an unknown vault is 403; a 2024-05-09 key does not have the endpoints; a key without withdraw scope is 403", async () => {
    for (const p of paths) {
      const r = await w.call("POST", `/vaults/000000000000000000000000/transaction-requests/${p}`, { ...ok, senders: [{ utxoId: ua }] })
      expect([r.status, r.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
      const old = await w.h.raw({
        method: "POST",
        url: `/vaults/${w.vault}/transaction-requests/${p}`,
        body: JSON.stringify({ data: { item: { ...ok, senders: [{ utxoId: ua }] } } }),
      })
      expect([old.status, old.body.error.code]).toEqual([400, "uri_not_found"])
      const reader = await createKey(w.h, { apiVersion: "2026-03-20", scopes: ["read"] })
      const scoped = await w.h.raw({
        method: "POST",
        url: `/vaults/${w.vault}/transaction-requests/${p}`,
        creds: reader,
        body: JSON.stringify({ data: { item: { ...ok, senders: [{ utxoId: ua }] } } }),
      })
      expect([scoped.status, scoped.body.error.code]).toEqual([403, "endpoint_not_allowed_for_api_key"])
    }
  })
})
