// Use cases of endpoints #16–#21 and of the control plane's approve/reject: draw ids and a change address,
// then let the vault decide the draft the domain builds (domain/transaction-request/draft.ts).
import { Effect } from "effect"
import type { VaultId } from "../domain/shared/ids.js"
import type { SimInstant } from "../domain/shared/sim-time.js"
import { batchDraftOf, type BatchInput } from "../domain/transaction-request/batch.js"
import { draftOf, type CreateRequestInput } from "../domain/transaction-request/draft.js"
import type { FeeState } from "../domain/transaction-request/estimate.js"
import { vaultDecider, vaultStream } from "../domain/vault/index.js"
import { formatTxId } from "../chain-sim/formats.js"
import { runDeciderWith, runDecider } from "./run-decider.js"
import { AddressDerivation, Ids, SimClock } from "./services.js"

/**
 * Untraced: a traced Effect.fn captures an Error (its call site's stack) on every call, 2% of a signed create's
 * server time, and no tracer reads it (simulator.ts turns spans off).
 */
export const createTxRequest = Effect.fnUntraced(function* (input: CreateRequestInput, feeState?: FeeState) {
  const ids = yield* Ids
  const derivation = yield* AddressDerivation
  const now: SimInstant = yield* (yield* SimClock).now
  const requestId = yield* ids.next("txRequest")
  const transactionId = formatTxId(input.network.family, (len) => ids.unrepeated(`txid:${requestId}`, len))
  const n = input.network
  const r = yield* runDeciderWith(vaultDecider, vaultStream(input.vaultId), (s) => {
    let changeAddress: Extract<import("../domain/vault/index.js").VaultAggregateEvent, { type: "AddressDerived" }> | undefined
    let change: string | null = null
    if (n.family === "utxo" && s._tag === "Active") {
      const index = s.accounts.nextIndex(null, n.blockchain, n.network, 1)
      const d = derivation.derive(input.vaultId, n.blockchain, n.network, { account: 0, change: 1, index })
      change = d.address
      changeAddress = {
        type: "AddressDerived",
        data: {
          vaultId: input.vaultId,
          vaultAccountId: null,
          blockchain: n.blockchain,
          network: n.network,
          address: d.address,
          derivationPath: d.derivationPath,
          change: 1,
          index,
          label: "change",
          addressType: "change",
          assetIds: [n.nativeAssetId],
          at: now,
        },
      }
    }
    const draft = draftOf(s._tag === "Active" ? s : undefined, input, requestId, transactionId, change)
    const used = draft.change !== null
    return Effect.succeed({
      type: "CreateTxRequest" as const,
      draft,
      ...(used && changeAddress !== undefined ? { changeAddress } : {}),
      ...(feeState !== undefined ? { freeBandwidthUsed: feeState.freeBandwidthUsed } : {}),
      ...(feeState?.staked !== undefined ? { staked: feeState.staked } : {}),
      now,
    })
  })
  return { ...r, requestId, transactionId }
})

/** An EIP-7702 batch (domain/transaction-request/batch.ts): one transaction on chain for all its calls. */
export const createBatchRequest = Effect.fn("createBatchRequest")(function* (input: BatchInput) {
  const ids = yield* Ids
  const now: SimInstant = yield* (yield* SimClock).now
  const requestId = yield* ids.next("txRequest")
  const transactionId = formatTxId(input.network.family, (len) => ids.unrepeated(`txid:${requestId}`, len))
  const r = yield* runDeciderWith(vaultDecider, vaultStream(input.vaultId), (s) =>
    Effect.succeed({
      type: "CreateTxRequest" as const,
      draft: batchDraftOf(s._tag === "Active" ? s : undefined, input, requestId, transactionId),
      now,
    }),
  )
  return { ...r, requestId, transactionId }
})

export const approveTxRequest = (vaultId: VaultId, requestId: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "ApproveTxRequest", requestId, now })
  })

export const rejectTxRequest = (vaultId: VaultId, requestId: string, reason: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "RejectTxRequest", requestId, reason, now })
  })

export const failTxRequest = (vaultId: VaultId, requestId: string, reason: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(vaultDecider, vaultStream(vaultId), { type: "FailTxRequest", requestId, reason, now })
  })

export { maxFeeOf, type CreateRequestInput } from "../domain/transaction-request/draft.js"
