// Follow-ups of an append (process managers run by one mechanism, never by a route): a store failure inside the
// broadcast that follows an auto-approved request is logged and retried, and a broadcast still failing after
// every attempt is sent by the next settlement pass of the clock.
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { FOLLOW_UP_ATTEMPTS } from "../../src/process-managers/after-append.js"
import { StoreUnavailable, type EventStoreShape } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { assetId } from "../support/catalogue.js"
import { startHarness, type Harness } from "../support/harness.js"

const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

/** A memory store whose next `failures.left` appends of a withdrawal to a chain fail as an unavailable store would. */
const flakyStore = () => {
  const inner = makeMemoryStore()
  const failures = { left: 0, injected: 0 }
  const store: EventStoreShape = {
    ...inner,
    append: (stream, events, expected) => {
      const withdrawal =
        stream.startsWith("chain-") &&
        events.some((e) => e.type === "ChainTxSubmitted" && (e.data as { kind?: string }).kind === "withdrawal")
      if (withdrawal && failures.left > 0) {
        failures.left--
        failures.injected++
        return Effect.fail(new StoreUnavailable({ reason: "injected failure" }))
      }
      return inner.append(stream, events, expected)
    },
  }
  return { store, failures }
}

let h: Harness | undefined
afterEach(async () => h?.close())

const setUp = async () => {
  const { store, failures } = flakyStore()
  const logged: Array<Record<string, unknown>> = []
  h = await startHarness({ sim: { store }, app: { log: { error: (e) => logged.push(e), info: () => {} } } })
  const harness = h
  const acct = (
    await harness.client.call<any>("POST", `/vaults/${harness.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const eth = assetId("ethereum", "sepolia", "ETH")
  const address = (
    await harness.client.call<any>("PUT", `/vaults/${harness.testVaultId}/vault-accounts/${acct}/add-asset`, {
      item: { assetId: eth, label: "w" },
    })
  ).body.data.item.address as string
  await harness.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  expect(
    (await harness.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: eth, amount: "1" }))
      .status,
  ).toBe(201)
  const send = () =>
    harness.client.call<any>("POST", `/vaults/${harness.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.25", feePriority: "standard", recipientAddress: EXTERNAL_ETH },
    })
  const status = async (id: string) =>
    (await harness.client.call<any>("GET", `/transactionRequests/${id}`)).body.data.item.transactionRequestStatus as string
  return { harness, failures, logged, send, status }
}

describe("the broadcast that follows an auto-approved request", () => {
  it("is retried after a store failure, each failure logged, and the request is mined", async () => {
    const { failures, logged, send, status } = await setUp()
    failures.left = FOLLOW_UP_ATTEMPTS - 1
    const r = await send()
    expect(r.status).toBe(201)
    expect(r.body.data.item.transactionRequestStatus).toBe("created")
    expect(failures.injected).toBe(FOLLOW_UP_ATTEMPTS - 1)
    const id = r.body.data.item.transactionRequestId as string
    expect(logged).toEqual(
      Array.from({ length: FOLLOW_UP_ATTEMPTS - 1 }, (_, i) =>
        expect.objectContaining({
          followUp: `broadcast ${id}`,
          attempt: i + 1,
          attempts: FOLLOW_UP_ATTEMPTS,
          error: expect.objectContaining({ _tag: "StoreUnavailable", reason: "injected failure" }),
        }),
      ),
    )
    expect(await status(id)).toBe("success")
  })
  it("still failing after every attempt: the write stands (201), the request stays broadcasted, and a clock advance sends it", async () => {
    const { harness, failures, logged, send, status } = await setUp()
    failures.left = FOLLOW_UP_ATTEMPTS
    const r = await send()
    expect(r.status).toBe(201)
    const id = r.body.data.item.transactionRequestId as string
    expect(logged.map((e) => e.attempt)).toEqual(Array.from({ length: FOLLOW_UP_ATTEMPTS }, (_, i) => i + 1))
    expect(await status(id)).toBe("broadcasted")
    expect((await harness.admin("POST", "/_sim/clock/advance", { seconds: 1 })).status).toBe(200)
    expect(await status(id)).toBe("success")
  })
})
