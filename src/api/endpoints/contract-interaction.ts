import { since } from "../../domain/api-key/index.js"
import { findAsset, findNetwork } from "../../domain/chains/index.js"
import type { TronOperation } from "../../domain/chains/tron-operation.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { formatAmount, parsePositiveAmount } from "../../domain/shared/money.js"
import { UINT256_MAX } from "../../chain-sim/tron.js"
import { createTxRequest } from "../../commands/transaction-requests.js"
import { checks } from "../body.js"
import { errors, isApiError } from "../errors.js"
import { type Operation, type OperationResult, operation } from "../operation.js"
import { runCommand } from "../use-case.js"
import { addressOn } from "../inputs/address.js"
import { amountIn } from "../inputs/amount.js"
import { invalidField } from "../inputs/invalid.js"
import { shortNote } from "../inputs/note.js"
import { addressIn, unknownVault, vaultAt } from "../inputs/parties.js"
import { accountIdOf } from "../../domain/vault-account/index.js"
import { ContractInteractionAnswer } from "../wire/contract-interaction.js"

const METHODS: Readonly<Record<string, "approve" | "transfer-from">> = {
  approve: "approve",
  "transfer-from": "transfer-from",
  transfer_from: "transfer-from",
  transferfrom: "transfer-from",
}

export const contractInteractionOperations: ReadonlyArray<Operation> = [
  operation({
    id: "createContractInteractionRequest",
    doc: {
      summary: "Create contract interaction request",
      description:
        "A TRC-20 `approve` (the simulator always grants `feePayer` the unlimited allowance) or `transfer-from` (the fee payer moves the holder's tokens); the fee payer pays. A transaction request like a withdrawal.",
      tags: ["Transaction Requests", "Tron"],
    },
    method: "POST",
    path: "/vaults/:vaultId/transaction-requests/contract-interaction",
    scope: "withdraw",
    vaultParam: "vaultId",
    versions: since("2026-03-20"),
    answer: ContractInteractionAnswer,
    body: {
      required: {
        method: checks.string({ min: 1, max: 40 }),
        assetId: checks.string({ min: 1, max: 100 }),
        feePayer: checks.string({ min: 1, max: 200 }),
        fromAddress: checks.string({ min: 1, max: 200 }),
        note: shortNote,
      },
      optional: {
        toAddress: checks.string({ min: 1, max: 200 }),
        amount: checks.string({ min: 1, max: 100 }),
        maxFee: checks.string({ min: 1, max: 100 }),
        vaultAccountId: checks.string({ min: 1, max: 100 }),
      },
    },
    handle: async ({ params, item, requestId, apiVersion }, deps): Promise<OperationResult> => {
      const method = METHODS[item.method.toLowerCase()]
      if (method === undefined) return invalidField("method", "must be approve or transfer-from")
      const asset = findAsset(item.assetId)
      if (asset === undefined) return errors.resourceNotFound("asset")
      if (asset.blockchain !== "tron" || asset.type !== "TOKEN")
        return invalidField("assetId", "must be a TRC-20 token (native TRX is not a contract)")
      const n = findNetwork(asset.blockchain, asset.network)!
      const toAddress = item.toAddress
      if (method === "transfer-from" && toAddress === undefined) return errors.missingRequiredAttributes(["toAddress"])
      if (method === "transfer-from" && item.amount === undefined) return errors.missingRequiredAttributes(["amount"])
      // Optional on approve (custody-api-2026.md §3.4.5): checked as for transfer-from, without effect there (approve
      // always grants the fee payer the unlimited allowance) and not echoed.
      let amount = 0n
      if (item.amount !== undefined) {
        const parsed = amountIn(item.amount, asset)
        if (isApiError(parsed)) return parsed
        amount = parsed
      }
      const badTo = toAddress !== undefined ? addressOn(n, toAddress, "toAddress") : undefined
      if (badTo !== undefined) return badTo
      let maxFee: bigint | null = null
      if (item.maxFee !== undefined) {
        const parsed = parsePositiveAmount(item.maxFee, 6)
        if (!parsed.ok) return invalidField("maxFee", "must be a positive TRX amount with at most 6 decimals")
        maxFee = parsed.value
      }
      const vault = vaultAt(deps, params.vaultId, unknownVault(apiVersion))
      if (isApiError(vault)) return vault
      if (vault.profile.type !== n.networkType)
        return invalidField("assetId", `is an asset of ${n.network}, which a ${vault.profile.type} vault does not use`)
      const from = addressIn(deps, params.vaultId, n, item.fromAddress, undefined)
      if (from === undefined) return errors.resourceNotFound("fromAddress in this vault")
      if (item.vaultAccountId !== undefined && accountIdOf(from.facts) !== item.vaultAccountId)
        return errors.resourceNotFound("fromAddress in this vault account")
      const payer = addressIn(deps, params.vaultId, n, item.feePayer, undefined)
      if (payer === undefined) return errors.resourceNotFound(`fee payer address ${item.feePayer} in this vault`)
      if (payer.facts.address === from.facts.address)
        return invalidField("feePayer", "must be another address than fromAddress (it is the spender the holder approves)")
      const spender = payer.facts.address
      const operation: TronOperation =
        method === "approve"
          ? { type: "approve", token: asset.id, spender, allowance: UINT256_MAX.toString() }
          : { type: "transfer-from", token: asset.id, spender, amount: amount.toString() }
      const r = await runCommand(
        deps,
        createTxRequest({
          vaultId: params.vaultId as VaultId,
          endpoint: "contract-interaction",
          network: n,
          asset,
          sender: from.facts.address,
          feePayer: spender,
          recipients: method === "transfer-from" && toAddress !== undefined ? [{ address: toAddress, amount }] : [],
          feePriority: null,
          feeLimit: maxFee,
          note: item.note,
          prepareStrategy: null,
          operation,
        }),
        { requestId },
      )
      if (isApiError(r)) return r
      const contract = asset.type === "TOKEN" ? asset.contract : ""
      return {
        status: 201,
        item: {
          assetUnit: asset.symbol,
          assetId: asset.id,
          contractInteractionDetails: {
            contractAddress: contract,
            method,
            functionSignature: method === "approve" ? "approve(address,uint256)" : "transferFrom(address,address,uint256)",
            owner: from.facts.address,
            spender,
            ...(method === "approve"
              ? { allowance: UINT256_MAX.toString() }
              : { recipient: toAddress, amount: formatAmount(amount, asset.decimals) }),
          },
          transactionRequestId: r.requestId,
          transactionRequestStatus: "created",
          blockchain: n.blockchain,
          network: n.network,
          vaultAccountId: accountIdOf(from.facts),
          fromAddress: from.facts.address,
          feePayer: spender,
          ...(method === "transfer-from" ? { toAddress, amount: formatAmount(amount, asset.decimals) } : {}),
          ...(maxFee !== null ? { maxFee: formatAmount(maxFee, 6) } : {}),
          note: item.note,
        },
      }
    },
  }),
]
