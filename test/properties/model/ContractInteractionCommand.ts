// POST /vaults/{vaultId}/transaction-requests/contract-interaction (2026-03-20, through x-api-version): a TRC-20
// approve from a tron address holding USDT to another tron address of the vault, its fee payer and spender, or a
// transfer-from of the holder's USDT by that spender. A transfer-from is sent only when its outcome is known: after
// an approve of the pair was mined (it succeeds) or while none was ever asked for (it is mined with errors, the fee
// spent at the fee payer); an approve only while no transfer-from of the pair is open, so the order they are mined
// in cannot change what the model expects.
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type ModelRequest, type Real } from "./world.js"

const USDT = findTestAsset("USDT", "tron")
const onTron = (m: Readonly<Model>) => m.addresses.filter((a) => a.chain === "tron/nile")

export class ContractInteractionCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly method: "approve" | "transfer-from",
    readonly from: number,
    readonly payer: number,
    readonly amount: bigint,
  ) {}
  check = (m: Readonly<Model>) => onTron(m).length >= 2
  async run(m: Model, r: Real) {
    const addresses = onTron(m)
    const holder = pickFrom(addresses, this.from)!
    const payer = pickFrom(
      addresses.filter((a) => a !== holder),
      this.payer,
    )!
    const ofPair = (method: string) =>
      m.requests.filter((q) => q.contract?.method === method && q.sender === holder.address && q.feePayer === payer.address)
    // Open: neither mined nor ended without being mined (failed at broadcast, rejected).
    const open = (q: ModelRequest) => !r.observed.mined.has(q.id) && q.status !== "failed" && q.status !== "rejected"
    const approved = ofPair("approve").some((q) => r.observed.mined.get(q.id)?.withErrors === false)
    if (this.method === "transfer-from" && ofPair("approve").some(open)) return
    if (this.method === "approve" && ofPair("transfer-from").some(open)) return
    await submitRequest(m, r, "contract-interaction", USDT, {
      sender: holder.address,
      feePayer: payer.address,
      path: `/vaults/${r.vaultId}/transaction-requests/contract-interaction`,
      version: "2026-03-20",
      item: {
        method: this.method,
        assetId: USDT.assetId,
        fromAddress: holder.address,
        feePayer: payer.address,
        note: "model",
        ...(this.method === "transfer-from" ? { toAddress: USDT.external, amount: formatAmount(this.amount, USDT.decimals) } : {}),
      },
      amount: this.method === "transfer-from" ? this.amount : 0n,
      // Beyond the allowance (none granted): the chain reverts it.
      outOfEnergy: this.method === "transfer-from" && !approved,
      contract: { method: this.method },
    })
  }
  toString = () =>
    this.method === "approve"
      ? `contractInteraction(approve USDT of tron address #${this.from} to #${this.payer})`
      : `contractInteraction(transfer-from ${formatAmount(this.amount, USDT.decimals)} USDT of tron address #${this.from} by #${this.payer})`
}
