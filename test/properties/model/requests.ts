// Creating a transaction request (#16–#21) the same way for every endpoint: 201 `created` and a request the model
// follows, or a refusal that writes nothing. A request broadcast (at once under the auto policy, or on its last
// approval) takes the chain's next armed fault.
import { expect } from "vitest"
import type { TestAsset } from "../../../src/testing/arbitraries.js"
import { checkInvariants } from "./invariants.js"
import { chainKey, type Model, type ModelRequest, type Real, type RequestKind } from "./world.js"

export interface Submission {
  readonly path: string
  readonly sender: string | null
  readonly feePayer?: string
  readonly calls?: ModelRequest["calls"]
  /** Sent with x-api-version (the model's key is pinned to 2024-05-09). */
  readonly version?: string
  readonly item: Record<string, unknown>
  /** What leaves the vault if it is mined without errors, base units. */
  readonly amount: bigint
  /** It must end mined-with-errors: a tron fee limit below what the token transfer burns, a transfer-from beyond its allowance. */
  readonly outOfEnergy?: boolean
  /** What leaves the vault, read from the answer (gross transfers send their amounts less the fee). */
  readonly amountOf?: (item: Record<string, unknown>) => bigint
  /** Refusals this kind may meet besides the common ones. */
  readonly refusals?: ReadonlyArray<string>
  readonly stake?: ModelRequest["stake"]
  readonly contract?: ModelRequest["contract"]
}

/** Refusals a request may meet with the model's choices: funds short, or a sender that lacks the asset. */
const REFUSALS = new Set(["400 insufficient_balance", "400 asset_not_added_to_address"])

export const broadcastTakesFault = (m: Model, q: ModelRequest) => {
  const f = m.faults.get(chainKey(q.asset))!
  if (f["broadcast-failure"] > 0) {
    f["broadcast-failure"]--
    q.expectFailure = true
  } else if (f["execution-failure"] > 0) {
    f["execution-failure"]--
    // A UTXO transaction cannot fail once mined: the network refuses it at broadcast instead (README "statuses").
    if (q.kind === "utxo" || q.kind === "utxo-transfer" || q.kind === "multiple-transfer") q.expectFailure = true
    else q.expectErrors = true
  }
}

export const submitRequest = async (m: Model, r: Real, kind: RequestKind, asset: TestAsset, s: Submission) => {
  const res = await r.client.call<{ item: { transactionRequestId: string; transactionRequestStatus: string } }>("POST", s.path, {
    item: s.item,
    ...(s.version !== undefined ? { headers: { "x-api-version": s.version } } : {}),
  })
  if (res.status !== 201) {
    const refusal = `${res.status} ${res.body.error?.code}`
    expect(REFUSALS.has(refusal) || (s.refusals ?? []).includes(refusal), `${kind}: ${res.status} ${JSON.stringify(res.body)}`).toBe(true)
    const head = await r.sim.admin<{ position: number }>("GET", "/_sim/health")
    expect(head.body.position, "a refused request writes nothing").toBe(r.observed.position)
    return checkInvariants(m, r)
  }
  expect(res.body.data.item.transactionRequestStatus).toBe("created")
  const levels = m.policy.mode === "auto" ? 0 : m.policy.levels
  const q: ModelRequest = {
    id: res.body.data.item.transactionRequestId,
    kind,
    asset,
    sender: s.sender,
    ...(s.feePayer !== undefined ? { feePayer: s.feePayer } : {}),
    ...(s.calls !== undefined ? { calls: s.calls } : {}),
    amount: s.amountOf !== undefined ? s.amountOf(res.body.data.item as unknown as Record<string, unknown>) : s.amount,
    levels,
    expectFailure: false,
    expectErrors: s.outOfEnergy === true,
    rejected: false,
    status: "created",
    ...(s.stake !== undefined ? { stake: s.stake } : {}),
    ...(s.contract !== undefined ? { contract: s.contract } : {}),
  }
  m.requests.push(q)
  if (levels === 0) broadcastTakesFault(m, q)
  await checkInvariants(m, r)
  if (levels > 0) expect(q.status, `${q.id} waits for approval`).toBe("await-approval")
}
