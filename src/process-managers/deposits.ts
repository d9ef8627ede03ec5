// Deposit process manager: credits deposits that reached their confirmations, once, to addresses holding the
// asset; a deposit of an asset not yet added waits and is credited when the asset is added (the spec's rule).
import { Effect } from "effect"
import { findAsset } from "../domain/chains/index.js"
import type { LedgerCommand } from "../domain/ledger/index.js"
import type { VaultId } from "../domain/shared/ids.js"
import { formatAmount } from "../domain/shared/money.js"
import { addressKey } from "../domain/vault-account/state.js"
import { vaultDecider, vaultStream } from "../domain/vault/index.js"
import { runDecider } from "../commands/run-decider.js"
import { SimClock } from "../commands/services.js"
import { Models } from "./read-models.js"
import type { TransferView } from "../projections/chains-transfers.js"
import type { ReadModels } from "../projections/read-models.js"
import { utxoIdOf } from "../projections/utxos.js"

export type Deposit = LedgerCommand["deposits"][number]

const depositOf = (models: ReadModels, t: TransferView, confirmations: number): Deposit | undefined => {
  const address = models.holdings.address(t.blockchain, t.network, t.transfer.to, undefined)
  const mined = t.mined.latest()
  const asset = findAsset(t.transfer.assetId)
  if (address === undefined || mined === undefined || asset === undefined || !address.assets.has(asset.id)) return undefined
  return {
    vaultId: address.facts.vaultId,
    vaultAccountId: address.facts.vaultAccountId,
    transactionId: t.transfer.transactionId,
    blockchain: t.blockchain,
    network: t.network,
    address: address.facts.address,
    fromAddress: t.transfer.from,
    assetId: asset.id,
    amount: t.transfer.amount,
    blockHeight: mined.height,
    blockHash: mined.blockHash,
    confirmations,
    vout: t.transfer.vout,
    assetType: asset.type,
    unit: asset.unit,
    decimalsAmount: formatAmount(BigInt(t.transfer.amount), asset.decimals),
  }
}

/**
 * Whether the read models show the deposit credited already: its DepositCredited is in the log, so the vault's
 * decider would skip it. Such a deposit is not offered again: after a start the decider has no cached state, and
 * deciding would fold the vault's whole stream (seconds on a long log) to credit nothing. Whatever the models cannot
 * vouch for is offered, and the decider decides as before.
 * - An output of a UTXO chain (a numbered vout): the UTXO model lists every output credited, with its vault.
 * - Otherwise the vault's record of the transaction: only a DepositCredited makes an incoming record "confirmed", and
 *   a transaction id names one transfer (no vout: one credit per vault).
 */
export const creditedInModels = (models: ReadModels, d: Deposit): boolean => {
  if (typeof d.vout === "number") return models.utxos.byId.get(utxoIdOf(d.transactionId, d.vout))?.vaultId === d.vaultId
  const record = models.transactions.find(d.vaultId, d.transactionId, undefined)
  return record !== undefined && record.direction === "incoming" && record.status.latest() === "confirmed"
}

export const creditByVault = (deposits: ReadonlyArray<Deposit>) =>
  Effect.gen(function* () {
    const { awaitPosition } = yield* Models
    const now = yield* (yield* SimClock).now
    const byVault = new Map<string, Array<Deposit>>()
    for (const d of deposits) {
      const list = byVault.get(d.vaultId)
      if (list === undefined) byVault.set(d.vaultId, [d])
      else list.push(d)
    }
    for (const [vaultId, list] of byVault) {
      const r = yield* runDecider(vaultDecider, vaultStream(vaultId as VaultId), { type: "CreditDeposits", deposits: list, now })
      if (r.position >= 0n) yield* awaitPosition(r.position)
    }
  })

/** Walks the chain's mined deposits in order and credits those with enough confirmations now. */
export const settleDeposits = (chain: string) =>
  Effect.gen(function* () {
    const { models, cursors } = yield* Models
    const view = models.chains.chain(chain)
    const schedule = view?.state.latest()?.schedule
    if (view === undefined || schedule === undefined) return
    const now = yield* (yield* SimClock).now
    const height = models.chains.heightAt(chain, now)
    // After a start (or a revert) the walk begins past the deposits the log shows credited, all of them from the first.
    let i = cursors.get(chain) ?? models.settledDeposits.through(chain)
    const due: Array<Deposit> = []
    while (i < view.minedDeposits.length) {
      const t = view.minedDeposits.at(i)
      const mined = t.mined.latest()!
      const confirmations = height - mined.height + 1
      if (confirmations < schedule.confirmations) break
      const d = depositOf(models, t, confirmations)
      if (d !== undefined && !creditedInModels(models, d)) due.push(d)
      i++
    }
    yield* creditByVault(due)
    cursors.set(chain, i)
  })

/** After an asset is added: deposits of it to that address that already have their confirmations. */
export const creditHeldDeposits = (blockchain: string, network: string, address: string, assetId: string) =>
  Effect.gen(function* () {
    const { models } = yield* Models
    const now = yield* (yield* SimClock).now
    const required = models.chains.chain(`${blockchain}.${network}`)?.state.latest()?.schedule.confirmations
    if (required === undefined) return
    const due = models.chains.depositsTo(addressKey(blockchain, network, address)).flatMap((t) => {
      const c = models.chains.confirmations(t, now)
      if (t.transfer.assetId !== assetId || c < required) return []
      const d = depositOf(models, t, c)
      return d === undefined || creditedInModels(models, d) ? [] : [d]
    })
    yield* creditByVault(due)
  })
