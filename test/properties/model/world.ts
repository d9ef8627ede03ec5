// The model-based test's two worlds: a deliberately simple model (accounts, addresses and what they hold,
// deposits sent in, requests with their last known status and amount) and the real in-process simulator, driven
// only through signed requests and /_sim calls, with what has been observed of it so far.
import type { CustodyClient } from "../../../src/client/index.js"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { TEST_ASSETS, TEST_CHAINS, type MiningSettings, type TestAsset } from "../../../src/testing/arbitraries.js"
import { startInProcess, type InProcess } from "../../../src/testing/in-process.js"
import type { WireStatus } from "../status-machine.js"
import type { Replica } from "./rebuild.js"

export type ChainKey = `${string}/${string}`
export const chainKey = (a: { readonly blockchain: string; readonly network: string }): ChainKey => `${a.blockchain}/${a.network}`

export interface ModelAddress {
  readonly chain: ChainKey
  readonly address: string
  readonly account: string
  /** Symbols of the assets added to it (UTXO addresses hold their coin from the start). */
  readonly assets: Set<string>
}

export interface ModelDeposit {
  readonly transactionId: string
  readonly asset: TestAsset
  readonly address: string
  readonly amount: bigint
}

export type RequestKind =
  | "single-transfer"
  | "utxo"
  | "evm-coin"
  | "evm-token"
  | "tron-coin"
  | "tron-token"
  | "gas-sponsored"
  | "utxo-transfer"
  | "multiple-transfer"
  | "batch"
  | "tron-resource"
  | "contract-interaction"

export interface ModelRequest {
  readonly id: string
  readonly kind: RequestKind
  readonly asset: TestAsset
  /** The sending address (account-based chains); null for UTXO requests, which spend the vault's outputs. */
  readonly sender: string | null
  /** The address paying the fee when not the sender (gas sponsorship). */
  readonly feePayer?: string
  /** A batch's calls (then `asset` is the chain's coin and `amount` unused). */
  readonly calls?: ReadonlyArray<{ readonly asset: TestAsset; readonly amount: bigint }>
  /** What leaves the vault when it is mined without errors (base units). */
  readonly amount: bigint
  /** Approvals it needs: 0 under the auto policy. */
  readonly levels: 0 | 1 | 2
  /** It must end failed: a broadcast fault was armed on its chain when it was broadcast. */
  expectFailure: boolean
  /** It must end mined-with-errors (an execution fault was armed, or a tron fee limit too low for the energy). */
  expectErrors: boolean
  /** The model rejected it. */
  rejected: boolean
  /** A tron staking request: what it freezes or unfreezes (base units). */
  readonly stake?: { readonly type: "freeze" | "unfreeze"; readonly resource: string; readonly amount: bigint }
  /** A TRC-20 contract interaction: its method (the sender is the holder, the fee payer the spender). */
  readonly contract?: { readonly method: "approve" | "transfer-from" }
  status: WireStatus
}

export interface Model {
  readonly accounts: Array<string>
  readonly addresses: Array<ModelAddress>
  readonly deposits: Array<ModelDeposit>
  readonly requests: Array<ModelRequest>
  policy: { mode: "auto" | "manual"; levels: 1 | 2 }
  readonly mining: Map<ChainKey, MiningSettings>
  /** Faults armed and not yet consumed by a broadcast, per chain. */
  readonly faults: Map<ChainKey, { "broadcast-failure": number; "execution-failure": number }>
}

/** Everything seen of the real system so far: the log up to `position`, and what it said. */
export interface Observed {
  position: number
  readonly heights: Map<ChainKey, number>
  /** Status of each request as the log's transaction request events say, move by move. */
  readonly statuses: Map<string, WireStatus>
  /** DepositCredited: transaction id → (address, asset id, amount). */
  readonly credited: Map<string, { readonly address: string; readonly assetId: string; readonly amount: bigint }>
  /** ChainBlocksMined: transaction id → height of the block holding it. */
  readonly minedAt: Map<string, number>
  /** TxRequestMined: request id → fee paid (native base units) and whether execution failed. */
  readonly mined: Map<string, { readonly fee: bigint; readonly withErrors: boolean; readonly transactionId: string }>
  /** Every transaction request event so far (the UTXO checks read reservations and spends from them). */
  readonly requestEvents: Array<{ readonly type: string; readonly data: unknown }>
}

export interface Real {
  readonly sim: InProcess
  readonly client: CustodyClient
  readonly vaultId: string
  readonly observed: Observed
  /** A simulator fed a copy of the log (see rebuild.ts), made on first use. */
  replica?: Replica
}

export const ALL_CHAINS: ReadonlySet<ChainKey> = new Set(TEST_CHAINS.map(chainKey))

export const startWorld = async (policy: Model["policy"] = { mode: "auto", levels: 1 }): Promise<{ model: Model; real: Real }> => {
  const sim = await startInProcess({
    seed: "model",
    webhooks: false,
    fixture: {
      vaults: [{ name: "Model vault", type: "test" }],
      apiKeys: [{ name: "model", apiVersion: "2024-05-09", rateLimit: { perSecond: 1e9, burst: 1e9 } }],
    },
  })
  const model: Model = {
    accounts: [],
    addresses: [],
    deposits: [],
    requests: [],
    policy: { mode: "auto", levels: 1 },
    mining: new Map(),
    faults: new Map(),
  }
  // Chains start on the README's defaults (interval mining on real block times); the model starts them mining
  // a block per transaction, so that deposits are spendable at once and set-mining varies it from there.
  for (const c of TEST_CHAINS) {
    const settings: MiningSettings = { mode: "auto", confirmations: 1 }
    const r = await sim.admin("PUT", `/_sim/chains/${c.blockchain}/${c.network}/mining`, settings)
    if (r.status !== 200) throw new Error(`mining setup: ${JSON.stringify(r.body)}`)
    model.mining.set(chainKey(c), settings)
    model.faults.set(chainKey(c), { "broadcast-failure": 0, "execution-failure": 0 })
  }
  // Given one account with an address on every chain holding its assets, each funded by one deposit (mined and
  // credited at once): requests can be afforded from the first command.
  const client = sim.client()
  const account = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${sim.testVaultId}/vault-account`, {
    item: { name: "given", color: "#000000", isHiddenInDashboard: false },
  })
  model.accounts.push(account.body.data.item.vaultAccountId)
  for (const a of TEST_ASSETS) {
    const r = await client.call<{ item: { address: string } }>(
      "PUT",
      `/vaults/${sim.testVaultId}/vault-accounts/${model.accounts[0]}/add-asset`,
      { item: { assetId: a.assetId, label: a.symbol } },
    )
    if (r.status !== 200) throw new Error(`add-asset setup: ${JSON.stringify(r.body)}`)
    const address = r.body.data.item.address
    const known = model.addresses.find((x) => x.address === address)
    if (known !== undefined) known.assets.add(a.symbol)
    else model.addresses.push({ chain: chainKey(a), address, account: model.accounts[0]!, assets: new Set([a.symbol]) })
    const d = await sim.admin<{ transactionId: string }>("POST", "/_sim/deposits", {
      blockchain: a.blockchain,
      network: a.network,
      address,
      assetId: a.assetId,
      amount: formatAmount(a.deposit.max, a.decimals),
    })
    if (d.status !== 201) throw new Error(`deposit setup: ${JSON.stringify(d.body)}`)
    model.deposits.push({ transactionId: d.body.transactionId, asset: a, address, amount: a.deposit.max })
  }
  // Then the approval policy the run starts with (the funding deposits above went through auto approval).
  await sim.admin("PUT", `/_sim/vaults/${sim.testVaultId}/approval-policy`, policy)
  model.policy = policy
  const real: Real = {
    sim,
    client,
    vaultId: sim.testVaultId,
    observed: {
      position: -1,
      heights: new Map(),
      statuses: new Map(),
      credited: new Map(),
      minedAt: new Map(),
      mined: new Map(),
      requestEvents: [],
    },
  }
  return { model, real }
}

export const closeWorld = async (r: Real) => {
  await r.replica?.close()
  await r.sim.close()
}

export const assetsOn = (chain: ChainKey) => TEST_ASSETS.filter((a) => chainKey(a) === chain)

/** Picks are generated before the model exists: they index whatever is there when the command runs. */
export const pickFrom = <A>(xs: ReadonlyArray<A>, pick: number): A | undefined => (xs.length === 0 ? undefined : xs[pick % xs.length])
