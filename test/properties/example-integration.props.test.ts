// The example of docs/property-testing.md, kept as a test so that it cannot rot: a deposit-crediting service that
// consumes the simulator's webhooks, property-tested against the simulator's own balances.
import { readFileSync } from "node:fs"
import http from "node:http"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  custodyArbitraries,
  findTestAsset,
  formatAmount,
  parseAmount,
  startInProcess,
  verifyWebhookSignature,
  type InProcess,
} from "../../src/testing.js"

it("is, from the marker below on, the code docs/property-testing.md shows", () => {
  const code = readFileSync(new URL(import.meta.url)).toString("utf8")
  const docs = readFileSync(new URL("../../docs/property-testing.md", import.meta.url)).toString("utf8")
  const shown = code.slice(code.lastIndexOf("// ---- the integration under test"))
  expect(docs.includes(shown), "docs/property-testing.md shows another version of this example: copy it over").toBe(true)
})

// ---- the integration under test: credits each user's confirmed deposits, once, from signed webhooks ----

class DepositCreditor {
  readonly balances = new Map<string, bigint>()
  private readonly credited = new Set<string>()
  /** How many answers to fail after the work is done (a crash between the commit and the reply). */
  failNext = 0

  constructor(
    private readonly secret: string,
    private readonly userOf: (address: string) => string | undefined,
  ) {}

  handle(raw: Buffer, signature: string | undefined): { status: number; body: string } {
    if (!verifyWebhookSignature({ body: raw, signature, secret: this.secret })) return { status: 401, body: "" }
    const message = JSON.parse(raw.toString("utf8"))
    const item = message.data.item
    const user = this.userOf(item.address)
    if (message.data.event === "INCOMING_CONFIRMED_COIN_TX" && user !== undefined && !this.credited.has(item.transactionId)) {
      this.credited.add(item.transactionId)
      const amount = parseAmount(item.amount, 18)
      if (!amount.ok) return { status: 400, body: "" }
      this.balances.set(user, (this.balances.get(user) ?? 0n) + amount.value)
    }
    if (this.failNext > 0) {
      this.failNext--
      return { status: 500, body: "" }
    }
    return { status: 200, body: "" }
  }

  listen(): Promise<{ url: string; close: () => Promise<void> }> {
    const server = http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const answer = this.handle(Buffer.concat(chunks), req.headers["x-signature"] as string | undefined)
        res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body)
      })
    })
    return new Promise((resolve) =>
      server.listen(0, "127.0.0.1", () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`,
          close: () => new Promise<void>((done) => server.close(() => done())),
        }),
      ),
    )
  }
}

// ---- the property: whatever happens on the chain and to the service, each user ends with their confirmed deposits ----

const ETH = findTestAsset("ETH")
const custody = custodyArbitraries(fc)

type Step =
  | { readonly kind: "deposit"; readonly user: number; readonly amount: bigint }
  | { readonly kind: "mine"; readonly blocks: number }
  | { readonly kind: "crash-after-commit"; readonly replies: number }
  | { readonly kind: "wait"; readonly seconds: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("deposit" as const),
    user: fc.nat({ max: 2 }),
    amount: custody.baseUnits(ETH.deposit.max, ETH.deposit.min),
  }),
  fc.record({ kind: fc.constant("mine" as const), blocks: custody.blocks }),
  fc.record({ kind: fc.constant("crash-after-commit" as const), replies: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("wait" as const), seconds: custody.clockSeconds }),
)

/** Lets simulated time run until no delivery is left to retry (the default schedule gives up after about 7 hours). */
const deliverEverything = async (sim: InProcess) => {
  for (let i = 0; i < 12; i++) {
    await sim.webhooksIdle()
    await sim.admin("POST", "/_sim/clock/advance", { seconds: 4 * 3600 })
  }
  await sim.webhooksIdle()
}

describe("a deposit-crediting service fed by webhooks", () => {
  it(
    "credits every user exactly their confirmed deposits, through retries and crashes after commit",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12 }), custody.confirmations, async (steps, confirmations) => {
          const sim = await startInProcess({ seed: "example" })
          const client = sim.client()
          const users = new Map<string, string>()
          const service = new DepositCreditor("s3cret", (address) => users.get(address.toLowerCase()))
          const receiver = await service.listen()
          try {
            await sim.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations })
            const addresses: Array<string> = []
            for (const name of ["ann", "bob", "cat"]) {
              const account = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${sim.testVaultId}/vault-account`, {
                item: { name, color: "#000000", isHiddenInDashboard: false },
              })
              const added = await client.call<{ item: { address: string } }>(
                "PUT",
                `/vaults/${sim.testVaultId}/vault-accounts/${account.body.data.item.vaultAccountId}/add-asset`,
                { item: { assetId: ETH.assetId, label: name } },
              )
              addresses.push(added.body.data.item.address)
              users.set(added.body.data.item.address.toLowerCase(), name)
            }
            expect(
              (await sim.admin("POST", "/_sim/webhooks", { url: receiver.url, secret: "s3cret", events: ["INCOMING_CONFIRMED_COIN_TX"] }))
                .status,
            ).toBe(201)

            const deposited = new Map<string, bigint>()
            for (const s of steps) {
              if (s.kind === "deposit") {
                const to = addresses[s.user]!
                await sim.admin("POST", "/_sim/deposits", {
                  blockchain: "ethereum",
                  network: "sepolia",
                  address: to,
                  assetId: ETH.assetId,
                  amount: formatAmount(s.amount, ETH.decimals),
                })
                deposited.set(users.get(to.toLowerCase())!, (deposited.get(users.get(to.toLowerCase())!) ?? 0n) + s.amount)
              } else if (s.kind === "mine") await sim.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: s.blocks })
              else if (s.kind === "crash-after-commit") service.failNext += s.replies
              else await sim.admin("POST", "/_sim/clock/advance", { seconds: s.seconds })
              await sim.webhooksIdle()
            }
            await sim.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: confirmations })
            await deliverEverything(sim)

            for (const [i, address] of addresses.entries()) {
              const user = users.get(address.toLowerCase())!
              const assets = (
                await client.call<{ item: { assets: Array<{ assetData: { totalAmount: string } }> } }>(
                  "GET",
                  `/vaults/${sim.testVaultId}/addresses/${address}/assets`,
                )
              ).body.data.item.assets
              expect(service.balances.get(user) ?? 0n, `${user}'s balance`).toBe(deposited.get(user) ?? 0n)
              expect(
                formatAmount(service.balances.get(user) ?? 0n, ETH.decimals),
                `${user} against the custody balance (address ${i})`,
              ).toBe(assets[0]!.assetData.totalAmount)
            }
          } finally {
            await receiver.close()
            await sim.close()
          }
        }),
      )
    },
    1_800 * (fc.readConfigureGlobal().numRuns ?? 100),
  ) // a hang guard of 1.8 s per run (fast-check's default: 100) of a simulator, a receiver and retries
})
