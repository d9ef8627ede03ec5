// POST /vaults/{vaultId}/tron/nile/addresses/{address}/manage-resource: a freeze, or an unfreeze of what the model
// knows is frozen on chain and not already being unfrozen (so that it stays valid until broadcast).
import type fc from "fast-check"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { submitRequest } from "./requests.js"
import { pickFrom, type Model, type Real } from "./world.js"

const TRX = findTestAsset("TRX")

/** TRX frozen on chain per address and resource: freezes mined without errors, less unfreezes mined or still open. */
const unfreezable = (m: Model, r: Real, address: string, resource: string): bigint =>
  m.requests
    .filter((q) => q.stake !== undefined && q.sender === address && q.stake.resource === resource)
    .reduce((s, q) => {
      const mined = r.observed.mined.get(q.id)
      if (q.stake!.type === "freeze") return mined !== undefined && !mined.withErrors ? s + q.stake!.amount : s
      // An unfreeze counts from creation (it holds its amount) until it ends without having unfrozen anything.
      const undone = q.status === "failed" || q.status === "rejected" || q.status === "mined-with-errors"
      return undone ? s : s - q.stake!.amount
    }, 0n)

export class ManageResourceCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly from: number,
    readonly type: "freeze" | "unfreeze",
    readonly resource: "bandwidth" | "energy",
    readonly trx: number,
  ) {}
  check = (m: Readonly<Model>) => m.addresses.some((a) => a.chain === "tron/nile" && a.assets.has("TRX"))
  async run(m: Model, r: Real) {
    const sender = pickFrom(
      m.addresses.filter((a) => a.chain === "tron/nile" && a.assets.has("TRX")),
      this.from,
    )!
    const amount = BigInt(this.trx) * 1_000_000n
    if (this.type === "unfreeze" && unfreezable(m, r, sender.address, this.resource) < amount) return
    await submitRequest(m, r, "tron-resource", TRX, {
      sender: sender.address,
      path: `/vaults/${r.vaultId}/tron/nile/addresses/${sender.address}/manage-resource`,
      item: { type: this.type, resource: this.resource, amount: formatAmount(amount, TRX.decimals) },
      amount: 0n,
      stake: { type: this.type, resource: this.resource, amount },
    })
  }
  toString = () => `manageResource(${this.type} ${this.trx} TRX for ${this.resource} from address #${this.from})`
}
