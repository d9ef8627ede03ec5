// Race tests: concurrent calls over the same funds (withdrawal requests, deposits, approvals and rejections of the
// same requests, mining, clock steps), their store reads and appends interleaved by fast-check's scheduler. Every
// interleaving must lose no event, write none twice, submit or mine no transaction twice, and overdraw nothing.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { PROPERTY_TIMEOUT_MS, runs } from "../budget.js"
import { ETH, FUNDS, checkAfterRace, startRace, type RaceWorld } from "./world.js"

type Action =
  | { readonly kind: "withdraw"; readonly amount: bigint }
  | { readonly kind: "deposit"; readonly amount: bigint }
  | { readonly kind: "approve" | "reject"; readonly request: number }
  | { readonly kind: "mine" }
  | { readonly kind: "advance"; readonly seconds: number }

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("withdraw" as const), amount: fc.bigInt({ min: FUNDS / 8n, max: FUNDS / 2n }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("deposit" as const), amount: fc.bigInt({ min: 1n, max: FUNDS / 4n }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom("approve" as const, "reject" as const), request: fc.nat({ max: 1 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "mine" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("advance" as const), seconds: fc.integer({ min: 1, max: 30 }) }) },
)

interface Answer {
  readonly status: number
  readonly code: string | undefined
  readonly id?: string
}

const perform = async (w: RaceWorld, a: Action): Promise<Answer> => {
  const v = w.sim.testVaultId
  switch (a.kind) {
    case "withdraw": {
      const r = await w.sim.client().call<any>("POST", `/vaults/${v}/ethereum/sepolia/addresses/${w.address}/transaction-requests`, {
        item: { amount: formatAmount(a.amount, ETH.decimals), feePriority: "slow", recipientAddress: ETH.external },
      })
      return { status: r.status, code: r.body.error?.code, id: r.body.data?.item.transactionRequestId }
    }
    case "deposit": {
      const r = await w.sim.admin<any>("POST", "/_sim/deposits", {
        blockchain: "ethereum",
        network: "sepolia",
        address: w.address,
        assetId: ETH.assetId,
        amount: formatAmount(a.amount, ETH.decimals),
      })
      return { status: r.status, code: r.body.error?.code, id: r.body.transactionId }
    }
    case "approve":
    case "reject": {
      const r = await w.sim.admin<any>("POST", `/_sim/transaction-requests/${w.waiting[a.request]}/${a.kind}`, {})
      return { status: r.status, code: r.body.error?.code }
    }
    case "mine": {
      const r = await w.sim.admin<any>("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
      return { status: r.status, code: r.body.error?.code }
    }
    case "advance": {
      const r = await w.sim.admin<any>("POST", "/_sim/clock/advance", { seconds: a.seconds })
      return { status: r.status, code: r.body.error?.code }
    }
  }
}

/**
 * A conflict that outlasted its retries is an allowed answer (409, nothing written); a 5xx never is. Settling a
 * chain (mine, clock steps) treats a step another call recorded first as done: it never answers 409 for it.
 */
const ALLOWED: { readonly [K in Action["kind"]]: ReadonlyArray<string> } = {
  withdraw: ["201", "400 insufficient_balance", "409 conflict"],
  deposit: ["201", "409 conflict"],
  approve: ["200", "409 illegal_transaction_request_transition", "409 conflict"],
  reject: ["200", "409 illegal_transaction_request_transition", "409 conflict"],
  mine: ["200", "409 conflict"],
  advance: ["200", "409 conflict"],
}

describe("concurrent calls over the same funds", () => {
  it(
    "lose no event, duplicate none, and never overdraw, in any interleaving of their store calls",
    async () => {
      let conflicts = 0
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(action, { minLength: 2, maxLength: 6 }),
          fc.constantFrom("auto" as const, "manual" as const),
          async (s, actions, policy) => {
            const w = await startRace(s, 2, policy)
            try {
              w.scheduled.scheduling = true
              const answers = await s.waitFor(Promise.all(actions.map((a) => perform(w, a))))
              answers.forEach((answer, i) => {
                const a = actions[i]!
                expect(ALLOWED[a.kind], `${a.kind}: ${answer.status} ${answer.code ?? ""}`).toContain(
                  answer.code === undefined ? String(answer.status) : `${answer.status} ${answer.code}`,
                )
              })
              for (const [i, id] of w.waiting.entries()) {
                const decided = actions.flatMap((a, j) =>
                  (a.kind === "approve" || a.kind === "reject") && a.request === i && answers[j]!.status === 200 ? [a.kind] : [],
                )
                expect(decided.length, `request ${id} decided once: ${decided.join(", ")}`).toBeLessThanOrEqual(1)
              }
              conflicts += w.scheduled.conflicts
              await checkAfterRace(w, {
                requests: answers.flatMap((x, i) => (actions[i]!.kind === "withdraw" && x.status === 201 ? [x.id!] : [])),
                deposits: answers.flatMap((x, i) => (actions[i]!.kind === "deposit" && x.status === 201 ? [x.id!] : [])),
              })
            } finally {
              await w.sim.close()
            }
          },
        ),
        { numRuns: runs(0.5) },
      )
      // The point is to interleave handlers between their read and their append: some runs must have made one retry.
      if (runs(0.5) >= 10) expect(conflicts, "interleavings that made a handler retry").toBeGreaterThan(0)
    },
    PROPERTY_TIMEOUT_MS,
  )
})
