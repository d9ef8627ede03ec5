// Use cases of 2026-03-20's utxo-transfer and its dry run: draw the ids (and a change address when the change
// account has none on the chain), then let the vault decide, or only plan against its current state.
import { Effect } from "effect"
import type { NetworkInfo } from "../domain/chains/index.js"
import type { VaultId } from "../domain/shared/ids.js"
import { accountNeedingChangeAddress, planUtxoTransfer, type UtxoTransferRequest } from "../domain/transaction-request/explicit-inputs.js"
import { vaultDecider, vaultStream, type VaultAggregateEvent, type VaultState } from "../domain/vault/index.js"
import { formatTxId } from "../chain-sim/formats.js"
import { readAggregate, runDeciderWith } from "./run-decider.js"
import { AddressDerivation, Ids, SimClock } from "./services.js"

type Derived = Extract<VaultAggregateEvent, { type: "AddressDerived" }>

/** A new change-branch address of the account (or of the vault itself), as the event that would register it. */
const changeAddressFor = (s: VaultState, r: UtxoTransferRequest, now: number) =>
  Effect.gen(function* () {
    if (s._tag !== "Active") return undefined
    const need = accountNeedingChangeAddress(s, r)
    if (need === undefined) return undefined
    const n: NetworkInfo = r.network
    const account = need.vaultAccountId === null ? 0 : (s.accounts.accounts.get(need.vaultAccountId)?.ordinal ?? 0)
    const index = s.accounts.nextIndex(need.vaultAccountId, n.blockchain, n.network, 1)
    const d = (yield* AddressDerivation).derive(r.vaultId, n.blockchain, n.network, { account, change: 1, index })
    const event: Derived = {
      type: "AddressDerived",
      data: {
        vaultId: r.vaultId,
        vaultAccountId: need.vaultAccountId as Derived["data"]["vaultAccountId"],
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

export const createUtxoTransfer = Effect.fn("createUtxoTransfer")(function* (request: UtxoTransferRequest) {
  const ids = yield* Ids
  const now = yield* (yield* SimClock).now
  const requestId = yield* ids.next("txRequest")
  const transactionId = formatTxId(request.network.family, (len) => ids.bytes(`txid:${requestId}`, len))
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
