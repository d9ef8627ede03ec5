// 2026-03-20's multiple-transfer: coin selection over one vault account's unspent outputs (smallest first for
// minimize-dust, largest first for optimize-size), planned by the same fee model as utxo-transfer. Its fee preview
// (utxoFeePreview) is what approximate-fee answers for `transactionType: multiple`.
import type { Utxo } from "../ledger/state.js"
import type { VaultId } from "../shared/ids.js"
import { accountKey } from "../vault-account/state.js"
import {
  byAmount,
  coverage,
  planFromInputs,
  shortOf,
  type Keyed,
  type PlanTerms,
  type UtxoTransferPlan,
  type VaultState,
} from "./explicit-inputs.js"
import type { TxRequestError } from "./state.js"

export type PrepareStrategy = "minimize-dust" | "optimize-size"

export interface MultipleTransferRequest extends PlanTerms {
  readonly vaultId: VaultId
  /** The account whose outputs are spent; the vault id is its default account (the vault's own addresses). */
  readonly vaultAccountId: string
  readonly prepareStrategy: PrepareStrategy
  readonly note: string | null
}

/** The account's spendable outputs on the chain, in the strategy's order (ties by outpoint, so selection is deterministic). */
export const candidatesOf = (
  v: VaultState,
  r: Pick<MultipleTransferRequest, "vaultId" | "vaultAccountId" | "network" | "prepareStrategy">,
): Array<Utxo> => {
  const n = r.network
  const own = accountKey(r.vaultId, r.vaultAccountId)
  const out: Array<Keyed> = []
  // Outputs often share an address: whether it is the account's is looked up once per address.
  const owned = new Map<string, boolean>()
  for (const [key, u] of v.ledger.utxos) {
    if (u.blockchain !== n.blockchain || u.network !== n.network || v.ledger.reservedOutputs.has(key)) continue
    let mine = owned.get(u.address)
    if (mine === undefined)
      owned.set(u.address, (mine = (v.accounts.address(u.blockchain, u.network, u.address)?.vaultAccountId ?? null) === own))
    if (mine) out.push({ key, u })
  }
  return byAmount(out, r.prepareStrategy === "optimize-size" ? -1 : 1)
}

/** The plan of a multiple-transfer: outputs added in the strategy's order until they cover the amounts and the fee. */
export const planMultipleTransfer = (
  v: VaultState,
  r: MultipleTransferRequest,
  changeAddress: string,
): UtxoTransferPlan | TxRequestError => {
  const chosen: Array<Utxo> = []
  const need = coverage(r)
  let sum = 0n
  for (const u of candidatesOf(v, r)) {
    chosen.push(u)
    sum += u.amount
    if (!need.covers(sum, chosen.length)) continue
    const plan = planFromInputs(v, r, chosen, changeAddress)
    if (plan !== undefined) return plan
  }
  return shortOf(r, chosen, null)
}

/**
 * The network fee a multiple-transfer would pay now, with the outputs it would spend and the size: the same
 * selection and fee model as its execution, so an estimate and the mined fee agree while the vault is unchanged.
 */
export const utxoFeePreview = (
  v: VaultState,
  r: MultipleTransferRequest,
): { readonly fee: bigint; readonly vbytes: bigint; readonly inputs: number; readonly change: bigint } | TxRequestError => {
  const plan = planMultipleTransfer(v, r, "")
  return "_tag" in plan ? plan : { fee: plan.fee, vbytes: plan.vbytes, inputs: plan.inputs.length, change: plan.change?.amount ?? 0n }
}
