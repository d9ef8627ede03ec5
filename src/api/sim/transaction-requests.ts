// Control plane: approve or reject transaction requests (the real service's mobile app), arm chain faults.
import type { VaultId } from "../../domain/shared/ids.js"
import { findNetwork } from "../../domain/chains/index.js"
import { approveTxRequest, rejectTxRequest } from "../../commands/transaction-requests.js"
import { armFault } from "../../commands/chain-mining.js"
import { Schema } from "effect"
import { checks, typed } from "../body.js"
import { attributeDecoder } from "../pipeline/decode.js"
import { errors, isApiError } from "../errors.js"
import { type SimRoute, simRoute } from "./common.js"
import { runCommand } from "../use-case.js"
import { requestJson } from "../presenters/transaction-requests.js"

const decisionBody = attributeDecoder({ optional: { reason: checks.string({ max: 500 }) } }, errors.extraBodyAttributes)

const faultKind = checks.oneOf(["broadcast-failure", "execution-failure"])
const faultBody = attributeDecoder(
  {
    required: { kind: faultKind },
    optional: {
      count: typed(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })), (v) =>
        Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1000 ? undefined : "must be an integer from 1 to 1000",
      ),
    },
  },
  errors.extraBodyAttributes,
)

const decision = (verb: "approve" | "reject"): SimRoute =>
  simRoute({
    method: "POST",
    path: `/_sim/transaction-requests/:id/${verb}`,
    handle: async ({ params, body }, deps) => {
      const decoded = decisionBody(body)
      if (isApiError(decoded)) return decoded
      const r = deps.sim.models.txRequests.find(params.id, undefined)
      if (r === undefined) return errors.resourceNotFound("transaction request")
      const vaultId = r.draft.vaultId as VaultId
      const result = await runCommand(
        deps,
        verb === "approve" ? approveTxRequest(vaultId, params.id) : rejectTxRequest(vaultId, params.id, decoded.reason ?? "rejected"),
      )
      if (isApiError(result)) return result
      return { status: 200, body: requestJson(deps.sim.models.txRequests.find(params.id, undefined)!, undefined) }
    },
  })

export const transactionRequestSimRoutes: ReadonlyArray<SimRoute> = [
  decision("approve"),
  decision("reject"),
  simRoute({
    method: "POST",
    path: "/_sim/chains/:blockchain/:network/faults",
    handle: async ({ params, body }, deps) => {
      const n = findNetwork(params.blockchain, params.network)
      if (n === undefined) return errors.resourceNotFound("chain (blockchain and network)")
      const decoded = faultBody(body)
      if (isApiError(decoded)) return decoded
      const count = decoded.count ?? 1
      const r = await runCommand(deps, armFault(n, decoded.kind, count))
      if (isApiError(r)) return r
      return { status: 200, body: { blockchain: n.blockchain, network: n.network, kind: decoded.kind, count } }
    },
  }),
]
