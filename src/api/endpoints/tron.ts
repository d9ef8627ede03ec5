// Tron resources: manage-resource (freeze, unfreeze, withdraw, delegate, undelegate: a transaction request like a
// withdrawal) and the resource overview of an address (2026-03-20).
import { Schema } from "effect"
import { since } from "../../domain/api-key/index.js"
import { findAsset, findNetwork, type NetworkInfo } from "../../domain/chains/index.js"
import type { TronOperation, TronResource } from "../../domain/chains/tron-operation.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount } from "../../domain/shared/money.js"
import { chainKey } from "../../chain-sim/index.js"
import { DEFAULT_LOCK_PERIOD, MAX_LOCK_PERIOD, refusal } from "../../chain-sim/tron.js"
import { createTxRequest } from "../../commands/transaction-requests.js"
import { checks, type Decoded, typed } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { runCommand } from "../use-case.js"
import type { AsOf } from "../reads.js"
import { addressOn } from "../inputs/address.js"
import { amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { note } from "../inputs/note.js"
import { addressIn, unknownVault, vaultOn } from "../inputs/parties.js"
import { networkTypeOf } from "../inputs/network.js"
import { overviewOf } from "../presenters/tron-overview.js"
import { ManageResourceAnswer, ResourceOverview } from "../wire/tron.js"

const TYPES = ["freeze", "unfreeze", "withdraw_resource", "delegate", "undelegate"] as const
type ManageType = (typeof TYPES)[number]

const stringOrBoolean = typed(Schema.Union([Schema.Boolean, Schema.Literals(["true", "false"])]), (v) =>
  typeof v === "boolean" || v === "true" || v === "false" ? undefined : "must be true or false",
)
const blocks = typed(Schema.Union([Schema.Int, Schema.String.check(Schema.isPattern(/^[0-9]{1,7}$/u))]), (v) =>
  (typeof v === "number" && Number.isSafeInteger(v)) || (typeof v === "string" && /^[0-9]{1,7}$/.test(v))
    ? undefined
    : "must be a whole number of blocks",
)

const manageBody = {
  required: { type: checks.string({ min: 1, max: 40 }), resource: checks.string({ min: 1, max: 40 }) },
  optional: {
    amount: checks.string({ min: 1, max: 100 }),
    toAddress: checks.string({ min: 1, max: 200 }),
    lock: stringOrBoolean,
    lockPeriod: blocks,
    note,
  },
}
type ManageItem = Decoded<typeof manageBody>

const isManageType = (s: string): s is ManageType => (TYPES as ReadonlyArray<string>).includes(s)
const isResource = (s: string): s is TronResource => s === "bandwidth" || s === "energy"

/** The tron network of the path, and the vault it is asked for: the checks every tron route makes first. */
const tronTarget = (
  deps: ApiDeps,
  params: { readonly vaultId: string; readonly blockchain: string; readonly network: string },
  version: Parameters<typeof unknownVault>[0],
  asOf?: AsOf,
): NetworkInfo | ApiError => {
  const n = findNetwork(params.blockchain, params.network)
  if (n === undefined || n.family !== "tron") return invalidField("blockchain", "this endpoint takes tron on mainnet or nile")
  const vault = vaultOn(deps, params.vaultId, n, "network", unknownVault(version), asOf)
  return isApiError(vault) ? vault : n
}

/** The operation the body asks for, or the error it earns (README "Tron resources"). */
const operationOf = (
  item: ManageItem,
  from: string,
  n: NetworkInfo,
  version: string,
): { op: TronOperation; type: ManageType; resource: TronResource } | ApiError => {
  const type = item.type.toLowerCase().replace("-", "_")
  if (!isManageType(type))
    return invalidField("type", "must be one of freeze, unfreeze, withdraw_resource (or withdraw-resource), delegate, undelegate")
  const resource = item.resource.toLowerCase()
  if (!isResource(resource)) return invalidField("resource", "must be bandwidth or energy")
  const delegation = type === "delegate" || type === "undelegate"
  // 2024-05-09 marks amount required for every type; later versions only where it means something.
  const amountText = item.amount
  if (amountText === undefined && (type !== "withdraw_resource" || version === "2024-05-09"))
    return errors.missingRequiredAttributes(["amount"])
  if (delegation && item.toAddress === undefined) return errors.missingRequiredAttributes(["toAddress"])
  if (!delegation && item.toAddress !== undefined) return invalidField("toAddress", "is only for delegate and undelegate")
  if (type !== "delegate" && (item.lock !== undefined || item.lockPeriod !== undefined))
    return invalidField(item.lock !== undefined ? "lock" : "lockPeriod", "is only for delegate")
  let amount = "0"
  // Every type but withdraw_resource has its amount by now (the missing check above).
  if (type !== "withdraw_resource" && amountText !== undefined) {
    const parsed = amountIn(amountText, findAsset(n.nativeAssetId)!)
    if (isApiError(parsed)) return parsed
    amount = parsed.toString()
  }
  const receiver = item.toAddress
  const badTo = receiver !== undefined ? addressOn(n, receiver, "toAddress") : undefined
  if (badTo !== undefined) return badTo
  if (receiver !== undefined && receiver === from) return invalidField("toAddress", "must be another address than fromAddress")
  const lock = item.lock === true || item.lock === "true"
  const period = item.lockPeriod === undefined ? 0 : Number(item.lockPeriod)
  if (!lock && period > 0) return invalidField("lockPeriod", "needs lock: true")
  if (period > MAX_LOCK_PERIOD) return invalidField("lockPeriod", `must be at most ${MAX_LOCK_PERIOD} blocks (28800 blocks = 1 day)`)
  switch (type) {
    case "freeze":
    case "unfreeze":
      return { op: { type, resource, amount }, type, resource }
    case "withdraw_resource":
      return { op: { type: "withdraw" }, type, resource }
    case "delegate":
      return { op: { type, resource, amount, receiver: receiver!, lockPeriod: lock ? period || DEFAULT_LOCK_PERIOD : 0 }, type, resource }
    case "undelegate":
      return { op: { type, resource, amount, receiver: receiver! }, type, resource }
  }
}

/** The attribute a chain refusal is about, for the error's details. */
const attributeOf = (reason: string) =>
  reason.includes("lockPeriod")
    ? "lockPeriod"
    : reason.includes("unfrozen TRX")
      ? "type"
      : reason.includes("delegating address")
        ? "toAddress"
        : "amount"

export const tronOperations: ReadonlyArray<Operation> = [
  operation({
    id: "manageTronResource",
    doc: {
      summary: "Manage tron resource",
      description:
        "Freezes, unfreezes, withdraws, delegates or undelegates TRX for bandwidth or energy: a transaction request like a withdrawal (approval, broadcast, mining, fee).",
      tags: ["Tron", "Transaction Requests"],
    },
    method: "POST",
    path: "/vaults/:vaultId/:blockchain/:network/addresses/:fromAddress/manage-resource",
    scope: "withdraw",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    answer: ManageResourceAnswer,
    body: manageBody,
    handle: async ({ params, item, requestId, apiVersion }, deps): Promise<OperationResult> => {
      const n = tronTarget(deps, params, apiVersion)
      if (isApiError(n)) return n
      const from = deps.reads.address(n.blockchain, n.network, params.fromAddress, undefined)
      const parsed = operationOf(item, from?.facts.address ?? params.fromAddress, n, apiVersion)
      if (isApiError(parsed)) return parsed
      if (from === undefined || from.facts.vaultId !== params.vaultId) return errors.resourceNotFound("fromAddress in this vault")
      // The chain's own validation as it stands now (it runs again at broadcast: a request approved later may fail then).
      const chain = chainKey(n.blockchain, n.network)
      const now = deps.reads.now()
      const refused = refusal(
        deps.reads.tronLedger(chain, undefined),
        from.facts.address,
        parsed.op,
        deps.reads.chainHeight(chain, now),
        now,
      )
      if (refused !== undefined) return invalidField(attributeOf(refused), refused)
      const native = findAsset(n.nativeAssetId)!
      const r = await runCommand(
        deps,
        createTxRequest({
          vaultId: params.vaultId as VaultId,
          endpoint: "manage-resource",
          network: n,
          asset: native,
          sender: from.facts.address,
          recipients: [],
          feePriority: null,
          feeLimit: null,
          note: item.note ?? null,
          prepareStrategy: null,
          operation: parsed.op,
        }),
        { requestId },
      )
      if (isApiError(r)) return r
      const op = parsed.op
      return {
        status: 201,
        item: {
          id: r.requestId,
          transactionRequestId: r.requestId,
          transactionRequestStatus: "created",
          blockchain: n.blockchain,
          network: n.network,
          fromAddress: from.facts.address,
          type: parsed.type,
          resource: parsed.resource,
          ...("amount" in op ? { amount: formatAmount(BigInt(op.amount), native.decimals) } : {}),
          unit: native.unit,
          ...("receiver" in op ? { toAddress: op.receiver } : {}),
          ...(op.type === "delegate"
            ? { lock: op.lockPeriod > 0, ...(op.lockPeriod > 0 ? { lockPeriod: String(op.lockPeriod) } : {}) }
            : {}),
          ...(item.note !== undefined ? { note: item.note } : {}),
        },
      }
    },
  }),
  operation({
    id: "getTronResourceOverview",
    doc: {
      summary: "Get tron resource overview",
      description:
        "A tron address's TRX, bandwidth and energy (limits, used, available, staked, delegated), pending unfreezes and delegations; resources regenerate with the simulated clock.",
      tags: ["Tron"],
    },
    method: "GET",
    path: "/vaults/:vaultId/:blockchain/:network/:address/overview",
    scope: "read",
    vaultParam: "vaultId",
    networkType: networkTypeOf,
    versions: since("2026-03-20"),
    clockDependent: true,
    answer: ResourceOverview,
    handle: ({ params, asOf, apiVersion }, deps) => {
      const n = tronTarget(deps, params, apiVersion, asOf)
      if (isApiError(n)) return n
      const a = addressIn(deps, params.vaultId, n, params.address, asOf)
      if (a === undefined) return errors.resourceNotFound("address")
      return { status: 200, item: overviewOf(deps, n, a.facts.address, asOf) }
    },
  }),
]
