// Chain-level use cases the control plane calls: external deposits, mining, settling confirmations.
import { Effect } from "effect"
import { allNetworks, findAsset, type NetworkInfo } from "../domain/chains/index.js"
import type { BaseUnits } from "../domain/shared/money.js"
import { AddressDerivation, Ids, Models } from "../commands/services.js"
import { chainKey } from "./index.js"
import { formatTxId } from "./formats.js"
import { transferFee } from "./fees.js"
import { configureChain, mineBlocks, networkOfChain, submitTransfer, tickChain } from "./mining.js"
import { resumeBroadcasts, settleConfirmed } from "./process-managers/withdrawals.js"

const sync = (position: bigint) =>
  Effect.gen(function* () {
    if (position >= 0n) yield* (yield* Models).awaitPosition(position)
  })

/** Ticks every chain the log knows (recording due interval blocks), then credits what is confirmed. */
export const settleAll = Effect.gen(function* () {
  const { models } = yield* Models
  for (const chain of [...models.chains.chains.keys()]) {
    const n = networkOfChain(chain)
    if (n === undefined) continue
    const r = yield* tickChain(n)
    yield* sync(r.position)
    yield* settleConfirmed(chain)
  }
  yield* resumeBroadcasts
})

export interface DepositInput {
  readonly network: NetworkInfo
  readonly assetId: string
  readonly to: string
  readonly amount: BaseUnits
  readonly from?: string
}

/** An external deposit enters the mempool (and is mined at once in auto mode); returns its transaction id. */
export const submitDeposit = (input: DepositInput) =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const n = input.network
    const recordId = yield* ids.next("transaction")
    const transactionId = formatTxId(n.family, (len) => ids.bytes(`txid:${recordId}`, len))
    // One of 256 external senders, so that their addresses (an elliptic-curve derivation each) can be reused.
    const external = Buffer.from(ids.bytes(`external:${recordId}`, 4)).readUInt32BE(0) & 0xff
    const from = input.from ?? (yield* AddressDerivation).derive("external", n.blockchain, n.network, { account: 0, change: 0, index: external }).address
    const token = findAsset(input.assetId)?.type === "TOKEN"
    const r = yield* submitTransfer(n, {
      transactionId,
      recordId,
      kind: "deposit",
      assetId: input.assetId,
      from,
      to: input.to,
      amount: input.amount.toString(),
      fee: transferFee(n, token ? "token" : "coin").toString(),
      vout: n.family === "utxo" ? 0 : null,
    })
    // Auto mining mined a block: it may also give withdrawals their confirmations.
    yield* sync(r.position)
    yield* settleConfirmed(chainKey(n.blockchain, n.network))
    return { transactionId, recordId, position: r.position }
  })

export const mine = (n: NetworkInfo, blocks: number) =>
  Effect.gen(function* () {
    const r = yield* mineBlocks(n, blocks)
    yield* sync(r.position)
    yield* settleConfirmed(chainKey(n.blockchain, n.network))
    const { models } = yield* Models
    return { height: models.chains.chain(chainKey(n.blockchain, n.network))?.state.latest()?.height ?? 0, position: r.position }
  })

export const configure = (n: NetworkInfo, settings: Parameters<typeof configureChain>[1]) =>
  Effect.gen(function* () {
    const r = yield* configureChain(n, settings)
    yield* sync(r.position)
    yield* settleConfirmed(chainKey(n.blockchain, n.network))
    return { position: r.position }
  })

export const knownNetworks = () => allNetworks()
