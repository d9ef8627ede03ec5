// fast-check arbitraries of the simulator's inputs: amounts, test chains and assets, control-plane bodies and
// transaction-request bodies (#16–#21). Built on the caller's fast-check, which is only imported as a type.
import type * as FastCheck from "fast-check"
import { assetsOf, type FeePriority } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"

/** The parts of fast-check used here: pass `fc` (the default export or the namespace). */
export type FastCheckApi = Pick<
  typeof FastCheck,
  "bigInt" | "boolean" | "constant" | "constantFrom" | "integer" | "option" | "record" | "oneof" | "array"
>
type Arbitrary<T> = FastCheck.Arbitrary<T>

export interface TestAsset {
  readonly symbol: string
  readonly blockchain: string
  readonly network: string
  readonly assetId: string
  readonly decimals: number
  readonly type: "COIN" | "TOKEN"
  /** The token's contract (tokenIdentifier of #19 and #21); "" for coins. */
  readonly contract: string
  /** Deposits small enough to keep runs readable, large enough to pay several fees. */
  readonly deposit: { readonly min: bigint; readonly max: bigint }
  /** An address outside every vault, valid on the asset's network. */
  readonly external: string
}

const testAsset = (blockchain: string, network: string, symbol: string, deposit: TestAsset["deposit"], external: string): TestAsset => {
  const a = assetsOf({ blockchain, network }).find((x) => x.symbol === symbol)
  if (a === undefined) throw new Error(`no ${symbol} on ${blockchain}/${network}`)
  return {
    symbol,
    blockchain,
    network,
    assetId: a.id,
    decimals: a.decimals,
    type: a.type,
    contract: a.type === "TOKEN" ? a.contract : "",
    deposit,
    external,
  }
}

const ETH_RECIPIENT = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

/** One asset per kind of request the API has: EVM coin and token, UTXO, tron coin and token, XRP (with its reserve). */
export const TEST_ASSETS: ReadonlyArray<TestAsset> = [
  testAsset("ethereum", "sepolia", "ETH", { min: 10n ** 13n, max: 5n * 10n ** 14n }, ETH_RECIPIENT),
  testAsset("ethereum", "sepolia", "USDC", { min: 1n, max: 100_000_000n }, ETH_RECIPIENT),
  testAsset("bitcoin", "testnet", "BTC", { min: 1_000n, max: 100_000n }, "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"),
  testAsset("tron", "nile", "TRX", { min: 1_000_000n, max: 30_000_000n }, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
  testAsset("tron", "nile", "USDT", { min: 1n, max: 100_000_000n }, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
  testAsset("xrp", "testnet", "XRP", { min: 100_000n, max: 3_000_000n }, "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"),
]

export const findTestAsset = (symbol: string, blockchain?: string): TestAsset => {
  const a = TEST_ASSETS.find((x) => x.symbol === symbol && (blockchain === undefined || x.blockchain === blockchain))
  if (a === undefined) throw new Error(`not a test asset: ${symbol}`)
  return a
}

/** The test networks of TEST_ASSETS, each once. */
export const TEST_CHAINS: ReadonlyArray<{ readonly blockchain: string; readonly network: string }> = [
  ...new Map(TEST_ASSETS.map((a) => [`${a.blockchain}/${a.network}`, { blockchain: a.blockchain, network: a.network }])).values(),
]

export type MiningSettings =
  | { readonly mode: "auto" | "manual"; readonly confirmations: number }
  | { readonly mode: "interval"; readonly intervalSeconds: number; readonly confirmations: number }

export const custodyArbitraries = (fc: FastCheckApi) => {
  /** Positive base units (satoshi, wei, sun, drops): the only amounts the domain knows. */
  const baseUnits = (max: bigint, min = 1n): Arbitrary<bigint> => fc.bigInt({ min, max })
  /** A wire amount of the asset: the shortest exact decimal string of 1..max base units. */
  const amountOf = (asset: { readonly decimals: number }, max: bigint, min = 1n): Arbitrary<string> =>
    baseUnits(max, min).map((v) => formatAmount(v, asset.decimals))
  const testAsset = (filter: (a: TestAsset) => boolean = () => true): Arbitrary<TestAsset> => fc.constantFrom(...TEST_ASSETS.filter(filter))
  const testChain = fc.constantFrom(...TEST_CHAINS)
  const feePriority: Arbitrary<FeePriority> = fc.constantFrom("slow", "standard", "fast")
  const confirmations = fc.integer({ min: 1, max: 3 })
  /** PUT /_sim/chains/{b}/{n}/mining bodies; intervals short enough for clock steps to mine. */
  const mining: Arbitrary<MiningSettings> = fc.oneof(
    fc.record({ mode: fc.constantFrom("auto" as const, "manual" as const), confirmations }),
    fc.record({ mode: fc.constant("interval" as const), intervalSeconds: fc.integer({ min: 5, max: 60 }), confirmations }),
  )
  /** POST /_sim/clock/advance seconds. */
  const clockSeconds = fc.integer({ min: 1, max: 120 })
  const blocks = fc.integer({ min: 1, max: 3 })
  const fault = fc.constantFrom("broadcast-failure" as const, "execution-failure" as const)
  const approvalPolicy = fc.oneof(
    fc.record({ mode: fc.constant("auto" as const), levels: fc.constant(1 as const) }),
    fc.record({ mode: fc.constant("manual" as const), levels: fc.constantFrom(1 as const, 2 as const) }),
  )
  /** POST /_sim/deposits of an asset to an address the caller picks. */
  const deposit = (asset: TestAsset, address: string) =>
    amountOf(asset, asset.deposit.max, asset.deposit.min).map((amount) => ({
      blockchain: asset.blockchain,
      network: asset.network,
      address,
      assetId: asset.assetId,
      amount,
    }))
  /** A withdrawal amount: up to `max` base units, rendered for the asset. */
  const withdrawal = (asset: TestAsset, max: bigint = asset.deposit.max) => amountOf(asset, max)
  const note = fc.option(fc.constantFrom("payout", "refund", "sweep"), { nil: undefined })
  return {
    baseUnits,
    amountOf,
    testAsset,
    testChain,
    feePriority,
    confirmations,
    mining,
    clockSeconds,
    blocks,
    fault,
    approvalPolicy,
    deposit,
    withdrawal,
    note,
  }
}

export type CustodyArbitraries = ReturnType<typeof custodyArbitraries>
