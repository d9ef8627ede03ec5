// What the transfer endpoints share once their inputs are decoded: the chain an address path names, creating the
// request through the use-case edge, the fee state a ceiling is checked against, and the answer's amounts.
import { findNetwork, type AssetInfo, type FeePriority } from "../../domain/chains/index.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount, parsePositiveAmount } from "../../domain/shared/money.js"
import type { RequestEndpoint } from "../../domain/transaction-request/index.js"
import type { FeeState } from "../../domain/transaction-request/estimate.js"
import { createTxRequest, type CreateRequestInput } from "../../commands/transaction-requests.js"
import { chainKey } from "../../chain-sim/index.js"
import { freeUnits } from "../../chain-sim/tron.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { runCommand } from "../use-case.js"
import { invalidField } from "../inputs/invalid.js"
import { vaultOn } from "../inputs/parties.js"
import { type StrategyText, strategyOf } from "../inputs/prepare-strategy.js"

/** The path of the 2024/2025 transfers, which names the vault and the chain. */
export interface AddressPath {
  readonly vaultId: string
  readonly blockchain: string
  readonly network: string
}

/** What a transfer's body may set besides its parties and amounts, decoded. */
interface TransferOptions {
  readonly feePriority?: FeePriority | undefined
  /** A TRX amount, checked by the endpoint that takes it. */
  readonly feeLimit?: string | undefined
  readonly note?: string | undefined
  readonly prepareStrategy?: StrategyText | undefined
}

export interface Built {
  readonly network: NonNullable<ReturnType<typeof findNetwork>>
  readonly asset: AssetInfo
}

export const allowed = (
  deps: ApiDeps,
  params: AddressPath,
  chains: ReadonlyArray<string> | "utxo" | "evm",
  networks: ReadonlyArray<string>,
): Built["network"] | ApiError => {
  const n = findNetwork(params.blockchain, params.network)
  const familyOk =
    n !== undefined && (chains === "utxo" ? n.family === "utxo" : chains === "evm" ? n.family === "evm" : chains.includes(n.blockchain))
  if (n === undefined || !familyOk || !networks.includes(n.network))
    return invalidField(
      "blockchain",
      `this endpoint takes ${Array.isArray(chains) ? chains.join(", ") : `${chains} chains`} on ${networks.join(", ")}`,
    )
  const vault = vaultOn(deps, params.vaultId, n, "network", errors.resourceNotFound("vault"))
  return isApiError(vault) ? vault : n
}

/** Creates the request (under the auto policy the simulator broadcasts it by itself); the answer always says `created`. */
export const create = async (
  deps: ApiDeps,
  requestId: string,
  vaultId: string,
  endpoint: RequestEndpoint,
  b: Built,
  sender: string | null,
  recipients: ReadonlyArray<{ address: string; amount: bigint }>,
  item: TransferOptions,
  fee: { readonly ceiling: bigint | null } = { ceiling: null },
) => {
  const input: CreateRequestInput = {
    vaultId: vaultId as VaultId,
    endpoint,
    network: b.network,
    asset: b.asset,
    sender,
    recipients,
    feePriority: item.feePriority ?? null,
    feeLimit: item.feeLimit === undefined ? null : (parseAmountRaw(item.feeLimit, 6) ?? 0n),
    note: item.note ?? null,
    prepareStrategy: item.prepareStrategy === undefined ? null : strategyOf(item.prepareStrategy),
    ...(fee.ceiling !== null ? { feeCeiling: fee.ceiling } : {}),
  }
  // The fee ceiling is checked against what mining now would cost, from the same state settlement reads.
  const feeState = fee.ceiling !== null ? feeStateFor(deps, b.network, sender) : undefined
  return runCommand(deps, createTxRequest(input, feeState), { requestId })
}

/**
 * What mining now would meet for the address that pays a fee (estimate.ts's FeeState): tron's free bandwidth it
 * used in the last day (as settlement counts it) and the staked units it has free (as the chain's execution takes them).
 */
export const feeStateFor = (deps: ApiDeps, n: Built["network"], payer: string | null): FeeState => {
  const now = deps.reads.now()
  const used = deps.reads.feeState(payer, now)
  if (payer === null || n.family !== "tron") return used
  return { ...used, staked: freeUnits(n, deps.reads.tronLedger(chainKey(n.blockchain, n.network), undefined), payer, now) }
}

export const parseAmountRaw = (s: string, decimals: number) => {
  const r = parsePositiveAmount(s, decimals)
  return r.ok ? r.value : undefined
}

export const fmt = (b: Built, amount: bigint) => formatAmount(amount, b.asset.decimals)
export const withNote = (item: { readonly note?: string | undefined }) => (item.note !== undefined ? { note: item.note } : {})
