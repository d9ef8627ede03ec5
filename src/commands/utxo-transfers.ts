// Use cases of 2026-03-20's utxo-transfer and its dry run: draw the ids (and a change address when the change
// account has none on the chain), then let the vault decide, or only plan against its current state.
import { Effect } from "effect"
import type { NetworkInfo } from "../domain/chains/index.js"
import type { VaultId } from "../domain/shared/ids.js"
import { accountNeedingChangeAddress, planUtxoTransfer, type UtxoTransferRequest } from "../domain/transaction-request/explicit-inputs.js"
import type { MultipleTransferRequest } from "../domain/transaction-request/coin-selection.js"
import { vaultDecider, vaultStream, type VaultAggregateEvent, type VaultState } from "../domain/vault/index.js"
import { formatTxId } from "../chain-sim/formats.js"
import { readAggregate, runDeciderWith } from "./run-decider.js"
import { AddressDerivation, Ids, SimClock } from "./services.js"

type Derived = Extract<VaultAggregateEvent, { type: "AddressDerived" }>

/** A new change-branch address of an account (null: of the vault itself), as the event that would register it. */
const deriveChange = (
  s: Extract<VaultState, { _tag: "Active" }>,
  vaultId: VaultId,
  vaultAccountId: string | null,
  n: NetworkInfo,
  now: number,
) =>
  Effect.gen(function* () {
    const account = vaultAccountId === null ? 0 : (s.accounts.accounts.get(vaultAccountId)?.ordinal ?? 0)
    const index = s.accounts.nextIndex(vaultAccountId, n.blockchain, n.network, 1)
    const d = (yield* AddressDerivation).derive(vaultId, n.blockchain, n.network, { account, change: 1, index })
    const event: Derived = {
      type: "AddressDerived",
      data: {
        vaultId,
        vaultAccountId: vaultAccountId as Derived["data"]["vaultAccountId"],
        blockchain: n.blockchain,
        network: n.network,
        address: d.address,
        derivationPath: d.derivationPath,
        change: 1,
        index,
        label: "change",
        addressType: "change",
        assetIds: [n.nativeAssetId as Derived["data"]["assetIds"][number]],
        at: now as Derived["data"]["at"],
      },
    }
    return event
  })

/** The change address utxo-transfer needs derived: only for an account target that has none on the chain. */
const changeAddressFor = (s: VaultState, r: UtxoTransferRequest, now: number) =>
  Effect.gen(function* () {
    if (s._tag !== "Active") return undefined
    const need = accountNeedingChangeAddress(s, r)
    return need === undefined ? undefined : yield* deriveChange(s, r.vaultId, need.vaultAccountId, r.network, now)
  })

export const createUtxoTransfer = Effect.fn("createUtxoTransfer")(function* (request: UtxoTransferRequest) {
  const ids = yield* Ids
  const now = yield* (yield* SimClock).now
  const requestId = yield* ids.next("txRequest")
  const transactionId = formatTxId(request.network.family, (len) => ids.unrepeated(`txid:${requestId}`, len))
  const r = yield* runDeciderWith(vaultDecider, vaultStream(request.vaultId), (s) =>
    Effect.map(changeAddressFor(s, request, now), (changeAddress) => ({
      type: "CreateUtxoTransfer" as const,
      request,
      requestId,
      transactionId,
      ...(changeAddress !== undefined ? { changeAddress } : {}),
      now,
    })),
  )
  return { ...r, requestId, transactionId }
})

/** The dry run: the plan the vault would accept now (or its refusal), nothing drawn, reserved or written. */
export const previewUtxoTransfer = (request: UtxoTransferRequest) =>
  Effect.gen(function* () {
    const s = yield* readAggregate(vaultDecider, vaultStream(request.vaultId as VaultId))
    if (s._tag !== "Active") return yield* Effect.fail({ _tag: "VaultNotFound" as const })
    const change = yield* changeAddressFor(s, request, 0)
    const plan = planUtxoTransfer(s, request, change?.data.address ?? null)
    return "_tag" in plan ? yield* Effect.fail(plan) : plan
  })

/** multiple-transfer: coin selection over the account, the change to a new change address of that account. */
export const createMultipleTransfer = Effect.fn("createMultipleTransfer")(function* (request: MultipleTransferRequest) {
  const ids = yield* Ids
  const now = yield* (yield* SimClock).now
  const requestId = yield* ids.next("txRequest")
  const transactionId = formatTxId(request.network.family, (len) => ids.unrepeated(`txid:${requestId}`, len))
  const own = request.vaultAccountId === request.vaultId ? null : request.vaultAccountId
  const r = yield* runDeciderWith(vaultDecider, vaultStream(request.vaultId), (s) =>
    s._tag !== "Active"
      ? Effect.fail({ _tag: "VaultNotFound" as const })
      : Effect.map(deriveChange(s, request.vaultId, own, request.network, now), (changeAddress) => ({
          type: "CreateMultipleTransfer" as const,
          request,
          requestId,
          transactionId,
          changeAddress,
          now,
        })),
  )
  return { ...r, requestId, transactionId }
})
