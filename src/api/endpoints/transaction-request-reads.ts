// #15 one transaction request: `GET /transactionRequests/{id}` up to 2025-09-23, and the v-2 path of 2026-03-20,
// `GET /transaction-requests/{id}`, which writes `amountUnit` for `unit` and `note` for `additionalDetails`
// (spec 2026 §3.4.10, diff row #15). As of any position; a request of a vault the key may not see is 403.
import { since, until } from "../../domain/api-key/index.js"
import { errors } from "../errors.js"
import type { ApiDeps } from "../deps.js"
import { type Operation, type OperationContext, type OperationResult, operation } from "../operation.js"
import { TxRequestDetail } from "../wire/transaction-requests.js"
import { requestJson } from "../presenters/transaction-requests.js"

const read = (
  { params, key, asOf }: Pick<OperationContext, "key" | "asOf"> & { readonly params: { readonly transactionRequestId: string } },
  deps: ApiDeps,
): OperationResult => {
  const r = deps.reads.txRequest(params.transactionRequestId, asOf)
  if (r === undefined) return errors.resourceNotFound("transaction request")
  if (key.grant.vaultIds !== null && !key.grant.vaultIds.includes(r.draft.vaultId)) return errors.notAllowedForWallet()
  return { status: 200, item: requestJson(r, asOf) }
}

export const transactionRequestReadOperations: ReadonlyArray<Operation> = [
  operation({
    id: "getTransactionRequest",
    doc: {
      summary: "Get transaction request details",
      description:
        "One transaction request and its status (created, await-approval, broadcasted, mined, success, rejected, failed, …); 403 for a request in a vault the key may not see.",
      tags: ["Transaction Requests"],
      refusals: [{ status: 403, code: "api_key_not_allowed_for_wallet" }],
    },
    method: "GET",
    path: "/transactionRequests/:transactionRequestId",
    scope: "read",
    versions: until("2026-03-20"),
    answer: TxRequestDetail,
    handle: read,
  }),
  operation({
    id: "getTransactionRequestV2",
    doc: {
      summary: "Get transaction request details",
      description:
        "One transaction request and its status, on the path 2026-03-20 uses (`amountUnit`, `note`); 403 for a request in a vault the key may not see.",
      tags: ["Transaction Requests"],
      refusals: [{ status: 403, code: "api_key_not_allowed_for_wallet" }],
    },
    method: "GET",
    path: "/transaction-requests/:transactionRequestId",
    scope: "read",
    versions: since("2026-03-20"),
    answer: TxRequestDetail,
    handle: read,
  }),
]
