// The UTXO kinds through export, import and the audit: a log with utxo-transfer (fee payer, change to an account)
// and multiple-transfer requests exports byte for byte again after an import, the replica answers the UTXO listing
// and the requests as the original does, at the head and as of an earlier position, and the audit finds nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../../support/harness.js"
import { exportText, importText } from "../../support/log-file.js"
import { BTC, EXTERNAL_BTC, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
let b: Harness
let middle: bigint
const ids: Array<string> = []
beforeAll(async () => {
  w = await startUtxoWorld()
  const alice = await w.account("alice")
  const bob = await w.account("bob")
  const a = await w.btcAddress(alice)
  const pb = await w.btcAddress(bob)
  const u1 = `${await w.deposit(a, "0.001")}:0`
  await w.deposit(pb, "0.0004")
  await w.deposit(a, "0.0003")
  const t = await w.call("POST", `/vaults/${w.vault}/transaction-requests/utxo-transfer`, {
    assetId: BTC,
    feePriority: "fast",
    note: "x",
    senders: [{ utxoId: u1 }],
    recipients: [{ address: EXTERNAL_BTC, amount: "0.001" }],
    feePayer: pb,
  })
  expect(t.status).toBe(201)
  ids.push(t.body.data.item.transactionRequestId)
  middle = await w.head()
  const m = await w.call("POST", `/vaults/${w.vault}/transaction-requests/multiple-transfer`, {
    vaultAccountId: alice,
    assetId: BTC,
    feePriority: "slow",
    note: "y",
    prepareStrategy: "minimize-dust",
    recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }],
  })
  expect(m.status).toBe(201)
  ids.push(m.body.data.item.transactionRequestId)
  b = await startHarness({ sim: { defaultWorkspace: false } })
})
afterAll(async () => {
  await b?.close()
  await w?.close()
})

describe("UTXO transfers in export, import and the audit", () => {
  it("replay to the same answers, re-export byte for byte, and reconcile", async () => {
    const text = await exportText(w.h)
    const imported = await importText(b, text)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(await exportText(b)).toBe(text)
    const read = async (h: Harness, path: string, asOf?: bigint) =>
      (
        await h.raw({
          method: "GET",
          url: path,
          creds: w.creds,
          ...(asOf !== undefined ? { override: { "x-sim-as-of": `position:${asOf}` } } : {}),
        })
      ).body.data
    for (const path of [`/vaults/${w.vault}/utxos`, `/vaults/${w.vault}/utxos?isSpent=true`, `/vaults/${w.vault}/transactions`])
      for (const asOf of [undefined, middle])
        expect(await read(b, path, asOf), `${path} as of ${asOf ?? "now"}`).toEqual(await read(w.h, path, asOf))
    for (const id of ids)
      expect((await b.clientFor(w.h.creds).call<any>("GET", `/transactionRequests/${id}`)).body.data).toEqual(
        (await w.h.client.call<any>("GET", `/transactionRequests/${id}`)).body.data,
      )
    const audit = await w.admin("GET", "/_sim/audit")
    expect(audit.body).toMatchObject({ ok: true })
  })
})
