// PUT /vaults/{vaultId}/vault-accounts/{id}/add-asset (#5): the asset goes to the account's address on its chain,
// derived when there is none; deposits of it already confirmed there are credited at once.
import type fc from "fast-check"
import { expect } from "vitest"
import type { TestAsset } from "../../../src/testing/arbitraries.js"
import { checkInvariants } from "./invariants.js"
import { chainKey, pickFrom, type Model, type Real } from "./world.js"

export class AddAssetCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly account: number,
    readonly asset: TestAsset,
  ) {}
  check = (m: Readonly<Model>) => m.accounts.length > 0
  async run(m: Model, r: Real) {
    const account = pickFrom(m.accounts, this.account)!
    const res = await r.client.call<{ item: { address: string } }>("PUT", `/vaults/${r.vaultId}/vault-accounts/${account}/add-asset`, {
      item: { assetId: this.asset.assetId, label: this.asset.symbol },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const address = res.body.data.item.address
    const existing = m.addresses.find((a) => a.account === account && a.chain === chainKey(this.asset))
    if (existing !== undefined) {
      expect(address, "the asset goes to the account's address on that chain").toBe(existing.address)
      existing.assets.add(this.asset.symbol)
    } else m.addresses.push({ chain: chainKey(this.asset), address, account, assets: new Set([this.asset.symbol]) })
    await checkInvariants(m, r)
  }
  toString = () => `addAsset(account #${this.account}, ${this.asset.symbol})`
}
