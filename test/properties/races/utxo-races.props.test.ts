// Race tests over the same outputs: #17, utxo-transfer and multiple-transfer requests, approvals, rejections and
// mining, their store reads and appends interleaved by fast-check's scheduler. Whatever the interleaving, no output
// is spent twice or held by two open requests, every reserved output is spent, released or still held, and the
// listing of the vault's outputs says so.
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { startInProcess } from "../../../src/testing/in-process.js"
import { PROPERTY_TIMEOUT_MS, runs } from "../budget.js"
import { checkUtxos } from "../model/utxo-checks.js"
import { scheduledStore } from "./scheduled-store.js"

const BTC = findTestAsset("BTC")
const OUTPUTS = [40_000n, 70_000n, 120_000n]

type Action =
  | { readonly kind: "utxo-2024" | "multiple"; readonly amount: bigint }
  | { readonly kind: "explicit"; readonly outputs: ReadonlyArray<number>; readonly amount: bigint }
  | { readonly kind: "approve" | "reject"; readonly request: number }
  | { readonly kind: "mine" }

const amount = fc.bigInt({ min: 10_000n, max: 150_000n })
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("explicit" as const),
      outputs: fc.uniqueArray(fc.nat({ max: OUTPUTS.length - 1 }), { minLength: 1, maxLength: 2 }),
      amount,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom("utxo-2024" as const, "multiple" as const), amount }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom("approve" as const, "reject" as const), request: fc.nat({ max: 1 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "mine" as const }) },
)

const ALLOWED: { readonly [K in Action["kind"]]: ReadonlyArray<string> } = {
  "utxo-2024": ["201", "400 insufficient_balance", "409 concurrent_modification"],
  multiple: ["201", "400 insufficient_balance", "409 concurrent_modification"],
  explicit: ["201", "400 insufficient_balance", "409 utxo_reserved", "409 utxo_already_spent", "409 concurrent_modification"],
  approve: ["200", "409 illegal_transaction_request_transition", "409 concurrent_modification"],
  reject: ["200", "409 illegal_transaction_request_transition", "409 concurrent_modification"],
  mine: ["200", "409 concurrent_modification"],
}

describe("concurrent UTXO requests of every kind over the same outputs", () => {
  it(
    "never spend an output twice, and every reserved output ends spent, released or held by its open request",
    async () => {
      let conflicts = 0
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(action, { minLength: 2, maxLength: 6 }),
          fc.constantFrom("auto" as const, "manual" as const),
          async (s, actions, policy) => {
            const scheduled = scheduledStore(s)
            const sim = await startInProcess({
              seed: "utxo-race",
              webhooks: false,
              simulator: { store: scheduled.store },
              fixture: {
                vaults: [{ name: "UTXO race", type: "test" }],
                apiKeys: [{ name: "race", apiVersion: "2026-03-20", rateLimit: { perSecond: 1e9, burst: 1e9 } }],
              },
            })
            try {
              const client = sim.client()
              const v = sim.testVaultId
              const account = (
                await client.call<any>("POST", `/vaults/${v}/vault-account`, {
                  item: { name: "a", color: "#000000", isHiddenInDashboard: false },
                  headers: { "x-api-version": "2024-05-09" },
                })
              ).body.data.item.vaultAccountId
              const address = (
                await client.call<any>("PUT", `/vaults/${v}/vault-accounts/${account}/add-asset`, {
                  item: { assetId: BTC.assetId, label: "race" },
                })
              ).body.data.item.address as string
              await sim.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 1 })
              const outputs: Array<string> = []
              for (const x of OUTPUTS)
                outputs.push(
                  `${(await sim.admin<any>("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: BTC.assetId, amount: formatAmount(x, 8) })).body.transactionId}:0`,
                )
              await sim.admin("PUT", `/_sim/vaults/${v}/approval-policy`, { mode: "manual", levels: 1 })
              const waiting: Array<string> = []
              for (const o of [outputs[0]!, outputs[1]!]) {
                const r = await client.call<any>("POST", `/vaults/${v}/transaction-requests/utxo-transfer`, {
                  item: {
                    assetId: BTC.assetId,
                    feePriority: "slow",
                    note: "w",
                    senders: [{ utxoId: o }],
                    recipients: [{ address: BTC.external, amount: "0.0001" }],
                  },
                })
                expect(r.status, JSON.stringify(r.body)).toBe(201)
                waiting.push(r.body.data.item.transactionRequestId)
              }
              if (policy === "auto") await sim.admin("PUT", `/_sim/vaults/${v}/approval-policy`, { mode: "auto", levels: 1 })
              const recipients = (x: bigint) => [{ address: BTC.external, amount: formatAmount(x, 8) }]
              const perform = async (a: Action): Promise<string> => {
                const answer = (r: { status: number; body: any }) =>
                  r.body?.error?.code !== undefined ? `${r.status} ${r.body.error.code}` : String(r.status)
                switch (a.kind) {
                  case "explicit":
                    return answer(
                      await client.call<any>("POST", `/vaults/${v}/transaction-requests/utxo-transfer`, {
                        item: {
                          assetId: BTC.assetId,
                          feePriority: "slow",
                          note: "r",
                          senders: a.outputs.map((i) => ({ utxoId: outputs[i] })),
                          recipients: recipients(a.amount),
                        },
                      }),
                    )
                  case "multiple":
                    return answer(
                      await client.call<any>("POST", `/vaults/${v}/transaction-requests/multiple-transfer`, {
                        item: {
                          vaultAccountId: account,
                          assetId: BTC.assetId,
                          feePriority: "slow",
                          note: "r",
                          prepareStrategy: "optimize_size",
                          recipients: recipients(a.amount),
                        },
                      }),
                    )
                  case "utxo-2024":
                    return answer(
                      await client.call<any>("POST", `/vaults/${v}/bitcoin/testnet/transaction-requests`, {
                        item: { feePriority: "slow", recipients: recipients(a.amount) },
                        headers: { "x-api-version": "2024-05-09" },
                      }),
                    )
                  case "approve":
                  case "reject": {
                    const r = await sim.admin<any>("POST", `/_sim/transaction-requests/${waiting[a.request]}/${a.kind}`, {})
                    return r.body?.error?.code !== undefined ? `${r.status} ${r.body.error.code}` : String(r.status)
                  }
                  case "mine": {
                    const r = await sim.admin<any>("POST", "/_sim/chains/bitcoin/testnet/mine", { blocks: 1 })
                    return r.body?.error?.code !== undefined ? `${r.status} ${r.body.error.code}` : String(r.status)
                  }
                }
              }
              scheduled.scheduling = true
              const answers = await s.waitFor(Promise.all(actions.map(perform)))
              scheduled.scheduling = false
              conflicts += scheduled.conflicts
              answers.forEach((got, i) => {
                expect(ALLOWED[actions[i]!.kind], `${actions[i]!.kind}: ${got}`).toContain(got)
              })
              const log = await Effect.runPromise(sim.sim.store.readAll({}))
              await checkUtxos(
                client,
                v,
                log.map((e) => ({ type: e.type, data: e.data })),
              )
              const row = sim.sim.models.holdings.balance("bitcoin", "testnet", address, BTC.assetId, undefined)
              expect(row.blocked >= 0n && row.blocked <= row.total, `no overdraft: total ${row.total}, blocked ${row.blocked}`).toBe(true)
            } finally {
              await sim.close()
            }
          },
        ),
        { numRuns: runs(0.3) },
      )
      // Handlers must have been interleaved between their read and their append: some runs made one retry.
      if (runs(0.3) >= 10) expect(conflicts, "interleavings that made a handler retry").toBeGreaterThan(0)
    },
    PROPERTY_TIMEOUT_MS,
  )
})
