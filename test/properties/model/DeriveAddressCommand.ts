// POST /vaults/{vaultId}/{blockchain}/{network}/addresses (#6) for an account: a new address holding nothing yet
// (its coin, on UTXO chains).
import type fc from "fast-check"
import { expect } from "vitest"
import { checkInvariants } from "./invariants.js"
import { assetsOn, pickFrom, type ChainKey, type Model, type Real } from "./world.js"

export class DeriveAddressCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly account: number,
    readonly chain: ChainKey,
  ) {}
  check = (m: Readonly<Model>) => m.accounts.length > 0
  async run(m: Model, r: Real) {
    const account = pickFrom(m.accounts, this.account)!
    const res = await r.client.call<{ item: { address: string } }>("POST", `/vaults/${r.vaultId}/${this.chain}/addresses`, {
      item: { label: "derived", vaultAccountId: account },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const coin = this.chain === "bitcoin/testnet" ? assetsOn(this.chain).map((a) => a.symbol) : []
    m.addresses.push({ chain: this.chain, address: res.body.data.item.address, account, assets: new Set(coin) })
    await checkInvariants(m, r)
  }
  toString = () => `deriveAddress(account #${this.account}, ${this.chain})`
}
