// A world that used the tron request kinds: manage-resource (freeze, delegate, unfreeze) and contract-interaction
// (a transfer-from before any allowance, which fails on chain; approve; a transfer-from within it), then a day.
import { expect } from "vitest"
import { assetId } from "./catalogue.js"
import { createKey, type Harness } from "./harness.js"

export const TRX = assetId("tron", "nile", "TRX")
export const USDT = assetId("tron", "nile", "USDT")
export const EXTERNAL_TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"

export interface TronKinds {
  readonly holder: string
  readonly payer: string
  /** Request ids by step. */
  readonly freeze: string
  readonly delegate: string
  readonly unfreeze: string
  readonly refused: string
  readonly approve: string
  readonly pull: string
  /** The log's position after the first transfer-from (failed on chain), for as-of checks. */
  readonly middle: bigint
}

export const runTronKinds = async (h: Harness): Promise<TronKinds> => {
  const ok = <T extends { status: number }>(r: T) => {
    expect(r.status, JSON.stringify(r)).toBeLessThan(300)
    return r
  }
  const v26 = h.clientFor(await createKey(h, { apiVersion: "2026-03-20" }))
  ok(await h.admin("PUT", "/_sim/chains/tron/nile/mining", { mode: "auto", confirmations: 1 }))
  const funded = async (name: string, amounts: ReadonlyArray<readonly [string, string]>) => {
    const acct = ok(
      await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
        item: { name, color: "#000000", isHiddenInDashboard: false },
      }),
    ).body.data.item.vaultAccountId as string
    let address: string | undefined
    for (const [id, amount] of amounts) {
      const item = address === undefined ? { assetId: id, label: name } : { assetId: id, address }
      address = ok(await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item
        .address as string
      ok(await h.admin("POST", "/_sim/deposits", { blockchain: "tron", network: "nile", address, assetId: id, amount }))
    }
    return address!
  }
  const holder = await funded("holder", [
    [TRX, "10"],
    [USDT, "50"],
  ])
  const payer = await funded("payer", [[TRX, "5000"]])
  const manage = async (item: Record<string, unknown>) =>
    ok(await h.client.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${payer}/manage-resource`, { item })).body.data.item
      .id as string
  const interact = async (item: Record<string, unknown>) =>
    ok(
      await v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/contract-interaction`, {
        item: { assetId: USDT, fromAddress: holder, feePayer: payer, ...item },
      }),
    ).body.data.item.transactionRequestId as string
  const freeze = await manage({ type: "freeze", resource: "energy", amount: "1000", note: "stake" })
  await manage({ type: "freeze", resource: "bandwidth", amount: "20" })
  const delegate = await manage({
    type: "delegate",
    resource: "bandwidth",
    amount: "10",
    toAddress: holder,
    lock: "true",
    lockPeriod: "100",
  })
  const refused = await interact({ method: "transfer-from", toAddress: EXTERNAL_TRON, amount: "5", note: "too early" })
  const middle = h.sim.models.position
  const approve = await interact({ method: "approve", note: "allow" })
  const pull = await interact({ method: "transfer-from", toAddress: EXTERNAL_TRON, amount: "5", note: "pull" })
  const unfreeze = await manage({ type: "unfreeze", resource: "energy", amount: "400" })
  ok(await h.admin("POST", "/_sim/clock/advance", { seconds: 86_400 }))
  // A block after the day, so that the log's last event is at the clock's time (a read "now" equals one as of the head).
  ok(await h.admin("POST", "/_sim/chains/tron/nile/mine", { blocks: 1 }))
  return { holder, payer, freeze, delegate, unfreeze, refused, approve, pull, middle }
}
