// A deliberately simple reference of the vault aggregate: sets and sums, no folds in place. It resolves generated
// intents into concrete commands and says what the decider must answer and what must change.
import type { AssetId, VaultAccountId } from "../../../src/domain/shared/ids.js"
import type { Portion, SpentOutput, TxRequestDraft, TxRequestStatus } from "../../../src/domain/transaction-request/index.js"
import type { NetworkRef } from "../../../src/domain/vault-account/index.js"
import type { VaultAggregateCommand, VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { ASSETS, NETWORKS, XRP_RESERVE, freshAddress, networkOf } from "../arbitraries/catalogue.js"
import type { DraftIntent } from "../arbitraries/drafts.js"
import { ACCOUNT_IDS, NOW as now, VAULT_ID } from "../arbitraries/ids.js"
import type { VaultIntent } from "../arbitraries/vault-commands.js"
import { requestCommand, type RequestCommandKind } from "./vault-requests.js"

export interface RefAddress {
  readonly network: NetworkRef
  readonly address: string
  readonly account: string | null
  readonly assets: Set<string>
}

export interface RefRequest {
  readonly draft: Omit<TxRequestDraft, "approvalLevels">
  readonly levels: 0 | 1 | 2
  status: TxRequestStatus
}

/** What the decider must answer: accepted (then `apply` updates the reference), or refused with this error tag. */
export type Expected = { readonly accept: true; readonly apply: () => void } | { readonly accept: false; readonly error: string }

const accept = (apply: () => void = () => {}): Expected => ({ accept: true, apply })
const refuse = (error: string): Expected => ({ accept: false, error })

export const holdingKey = (n: { blockchain: string; network: string }, address: string, assetId: string) =>
  `${n.blockchain}|${n.network}|${address}|${assetId}`

export class VaultReference {
  exists = false
  policy: { mode: "auto" | "manual"; levels: 1 | 2 } = { mode: "auto", levels: 1 }
  readonly accounts = new Set<string>()
  readonly addresses = new Map<string, RefAddress>()
  readonly holdings = new Map<string, { total: bigint; blocked: bigint }>()
  readonly credited = new Set<string>()
  readonly utxos = new Map<string, { readonly address: string; readonly amount: bigint }>()
  readonly reserved = new Set<string>()
  readonly requests = new Map<string, RefRequest>()
  private derived = 0
  private seq = 0

  holding(n: { blockchain: string; network: string }, address: string, assetId: string) {
    const key = holdingKey(n, address, assetId)
    let h = this.holdings.get(key)
    if (h === undefined) this.holdings.set(key, (h = { total: 0n, blocked: 0n }))
    return h
  }

  available(n: NetworkRef, address: string, assetId: string): bigint {
    const h = this.holdings.get(holdingKey(n, address, assetId)) ?? { total: 0n, blocked: 0n }
    const free = h.total - h.blocked - (n.blockchain === "xrp" && assetId === n.nativeAssetId ? XRP_RESERVE : 0n)
    return free > 0n ? free : 0n
  }

  addressesOn(n: NetworkRef): Array<RefAddress> {
    return [...this.addresses.values()].filter((a) => a.network === n)
  }

  nextAddress(n: NetworkRef): string {
    return freshAddress(n, ++this.derived)
  }

  nextRequestIds(): { requestId: string; transactionId: string } {
    this.seq++
    return { requestId: `req${this.seq}`, transactionId: `0xtx${this.seq}` }
  }

  addAddress(n: NetworkRef, address: string, account: string | null, assets: ReadonlyArray<string>): void {
    this.addresses.set(`${n.blockchain}|${n.network}|${address}`, { network: n, address, account, assets: new Set(assets) })
  }

  resolve(intent: VaultIntent): { readonly command: VaultAggregateCommand; readonly expected: Expected } {
    const r = this.resolveActive(intent)
    return this.exists || intent.kind === "create-vault" ? r : { command: r.command, expected: refuse("VaultNotFound") }
  }

  private resolveActive(intent: VaultIntent): { readonly command: VaultAggregateCommand; readonly expected: Expected } {
    switch (intent.kind) {
      case "create-vault":
        return {
          command: {
            type: "CreateVault",
            profile: { vaultId: VAULT_ID, name: "props", type: "test", color: "#000000", backuped: false },
            now,
          },
          expected: this.exists ? refuse("VaultAlreadyExists") : accept(() => (this.exists = true)),
        }
      case "set-policy":
        return {
          command: { type: "SetApprovalPolicy", mode: intent.mode, levels: intent.levels, now },
          expected: accept(() => (this.policy = { mode: intent.mode, levels: intent.levels })),
        }
      case "create-account": {
        const id = ACCOUNT_IDS[intent.account]!
        return {
          command: { type: "CreateVaultAccount", vaultAccountId: id, name: "a", color: "#000000", isHiddenInDashboard: false, now },
          expected: this.accounts.has(id) ? refuse("VaultAccountAlreadyExists") : accept(() => this.accounts.add(id)),
        }
      }
      case "generate-address": {
        const n = NETWORKS[intent.network]!
        const account = intent.account === null ? null : ACCOUNT_IDS[intent.account]!
        const address = this.nextAddress(n)
        const command: VaultAggregateCommand = {
          type: "GenerateAddress",
          vaultAccountId: account as VaultAccountId | null,
          network: n,
          label: "g",
          derived: { address, derivationPath: "m/0", index: this.derived },
          now,
        }
        if (account !== null && !this.accounts.has(account)) return { command, expected: refuse("VaultAccountNotFound") }
        return {
          command,
          expected: accept(() => this.addAddress(n, address, account, n.utxo || account === null ? [n.nativeAssetId] : [])),
        }
      }
      case "add-asset":
        return this.addAsset(intent)
      case "credit":
        return this.credit(intent)
      case "create-request":
        return this.createRequest(intent.draft)
      default:
        return requestCommand(this, intent.kind as RequestCommandKind, intent)
    }
  }

  private addAsset(intent: Extract<VaultIntent, { kind: "add-asset" }>) {
    const asset = ASSETS[intent.asset]!
    const n = networkOf(asset)
    const account = ACCOUNT_IDS[intent.account]!
    const held = [...this.addresses.values()].filter((a) => a.network === n && a.account === account)
    if (intent.target._tag === "Address") {
      const all = this.addressesOn(n)
      const target = all[intent.target.pick % (all.length + 1)]?.address ?? "foreign"
      const command: VaultAggregateCommand = {
        type: "AddAsset",
        vaultAccountId: account as VaultAccountId,
        asset,
        nativeAssetId: n.nativeAssetId,
        target: { _tag: "Address", address: target },
        now,
      }
      const record = held.find((a) => a.address === target)
      if (!this.accounts.has(account)) return { command, expected: refuse("VaultAccountNotFound") }
      if (record === undefined) return { command, expected: refuse("AddressNotHeld") }
      if (record.assets.has(asset.id)) return { command, expected: accept() }
      if (asset.utxo) return { command, expected: refuse("AddressHoldsAnotherAsset") }
      return { command, expected: accept(() => record.assets.add(asset.id)) }
    }
    const address = this.nextAddress(n)
    const command: VaultAggregateCommand = {
      type: "AddAsset",
      vaultAccountId: account as VaultAccountId,
      asset,
      nativeAssetId: n.nativeAssetId,
      target: { _tag: "Label", label: "l", derived: { address, derivationPath: "m/1", index: this.derived } },
      now,
    }
    if (!this.accounts.has(account)) return { command, expected: refuse("VaultAccountNotFound") }
    const first = held[0]
    if (first === undefined) return { command, expected: accept(() => this.addAddress(n, address, account, [asset.id])) }
    if (asset.utxo || held.some((a) => a.assets.has(asset.id))) return { command, expected: accept() }
    return { command, expected: accept(() => first.assets.add(asset.id)) }
  }

  private credit(intent: Extract<VaultIntent, { kind: "credit" }>) {
    const all = [...this.addresses.values()]
    const deposits = intent.deposits.map((d) => {
      const a = all[d.address % (all.length + 1)]
      const n = a?.network ?? NETWORKS[d.address % NETWORKS.length]!
      const assets = ASSETS.filter((x) => networkOf(x) === n)
      const asset = assets[d.asset % assets.length]!
      return {
        vaultId: VAULT_ID,
        vaultAccountId: a?.account ?? null,
        transactionId: d.tx,
        blockchain: n.blockchain,
        network: n.network,
        address: a?.address ?? "foreign",
        fromAddress: "external",
        assetId: asset.id as AssetId,
        amount: d.amount.toString(),
        blockHeight: 1,
        blockHash: "0xblock",
        confirmations: 1,
        vout: n.utxo ? 0 : null,
        assetType: asset.native ? ("COIN" as const) : ("TOKEN" as const),
        unit: asset.symbol,
        decimalsAmount: "1",
        network$: n,
      }
    })
    const command: VaultAggregateCommand = { type: "CreditDeposits", deposits: deposits.map(({ network$: _n, ...d }) => d), now }
    return {
      command,
      expected: accept(() => {
        for (const d of deposits) {
          const key = d.vout === null ? d.transactionId : `${d.transactionId}:${d.vout}`
          const a = this.addresses.get(`${d.blockchain}|${d.network}|${d.address}`)
          if (this.credited.has(key) || a === undefined || !a.assets.has(d.assetId)) continue
          this.credited.add(key)
          this.holding(d.network$, d.address, d.assetId).total += BigInt(d.amount)
          if (d.vout !== null) this.utxos.set(key, { address: d.address, amount: BigInt(d.amount) })
        }
      }),
    }
  }

  private createRequest(intent: DraftIntent) {
    const asset = ASSETS[intent.asset]!
    const n = networkOf(asset)
    const native = n.nativeAssetId
    const ids = this.nextRequestIds()
    let sender: string | null = null
    let inputs: Array<SpentOutput> = []
    let reservations: Array<Portion>
    let recipients: Array<{ address: string; amount: string }>
    let maxFee = intent.maxFee
    let change: { address: string; amount: string } | null = null
    let changeAddress: Extract<VaultAggregateEvent, { type: "AddressDerived" }> | undefined
    let precheck: string | undefined
    if (n.utxo) {
      const outputs = [...this.utxos.entries()]
      const chosen = new Map<string, SpentOutput>()
      for (const p of intent.inputs) {
        const o = outputs[p % (outputs.length + 1)]
        const key = o?.[0] ?? "0xmissing:0"
        const [transactionId, vout] = key.split(":") as [string, string]
        chosen.set(key, {
          transactionId,
          vout: Number(vout),
          address: o?.[1].address ?? "tb1qmissing",
          amount: (o?.[1].amount ?? 1_000n).toString(),
        })
      }
      inputs = [...chosen.values()]
      const total = inputs.reduce((s, i) => s + BigInt(i.amount), 0n)
      maxFee = maxFee < total ? maxFee : 0n
      const back = intent.change && total - maxFee >= 2n ? (total - maxFee) / 2n : 0n
      if (back > 0n) {
        const address = this.nextAddress(n)
        change = { address, amount: back.toString() }
        changeAddress = {
          type: "AddressDerived",
          data: {
            vaultId: VAULT_ID,
            vaultAccountId: null,
            blockchain: n.blockchain,
            network: n.network,
            address,
            derivationPath: "m/c",
            change: 1,
            index: this.derived,
            label: "change",
            addressType: "change",
            assetIds: [native],
            at: now,
          },
        }
      }
      recipients = [{ address: "tb1qexternal", amount: (total - maxFee - back).toString() }]
      reservations = inputs.map((i) => ({ address: i.address, assetId: native, amount: i.amount }))
    } else {
      const candidates = this.addressesOn(n)
      const from = intent.foreign || candidates.length === 0 ? undefined : candidates[intent.sender % candidates.length]!
      sender = from?.address ?? `${n.blockchain === "ethereum" ? "0x" : "r"}foreign`
      if (from === undefined) precheck = "SenderNotInVault"
      else if (!from.assets.has(asset.id)) precheck = "AssetNotHeldBySender"
      recipients = [{ address: "external", amount: intent.amount.toString() }]
      reservations = asset.native
        ? [{ address: sender, assetId: native, amount: (intent.amount + maxFee).toString() }]
        : [
            { address: sender, assetId: asset.id, amount: intent.amount.toString() },
            ...(maxFee > 0n ? [{ address: sender, assetId: native, amount: maxFee.toString() }] : []),
          ]
    }
    const draft: Omit<TxRequestDraft, "approvalLevels"> = {
      ...ids,
      vaultId: VAULT_ID,
      vaultAccountId: sender === null ? null : (this.addresses.get(`${n.blockchain}|${n.network}|${sender}`)?.account ?? null),
      endpoint: n.utxo ? "utxo" : asset.native ? "coin" : "token",
      blockchain: n.blockchain,
      network: n.network,
      assetId: asset.id,
      feeAssetId: native,
      sender,
      recipients,
      feePriority: "slow",
      maxFee: maxFee.toString(),
      feeLimit: null,
      note: null,
      prepareStrategy: null,
      inputs,
      change,
      reservations,
    }
    const command: VaultAggregateCommand = {
      type: "CreateTxRequest",
      draft,
      ...(changeAddress !== undefined ? { changeAddress } : {}),
      now,
    }
    if (precheck !== undefined) return { command, expected: refuse(precheck) }
    const needed = new Map<string, bigint>()
    for (const p of reservations)
      needed.set(`${p.address}|${p.assetId}`, (needed.get(`${p.address}|${p.assetId}`) ?? 0n) + BigInt(p.amount))
    for (const [key, amount] of needed) {
      const [address, assetId] = key.split("|") as [string, string]
      if (this.available(n, address, assetId) < amount) return { command, expected: refuse("InsufficientFunds") }
    }
    if (inputs.some((i) => this.reserved.has(`${i.transactionId}:${i.vout}`) || !this.utxos.has(`${i.transactionId}:${i.vout}`)))
      return { command, expected: refuse("InsufficientFunds") }
    return {
      command,
      expected: accept(() => {
        const levels = this.policy.mode === "auto" ? 0 : this.policy.levels
        this.requests.set(ids.requestId, { draft, levels, status: levels === 0 ? "Broadcasted" : "AwaitingApproval" })
        for (const p of reservations) this.holding(n, p.address, p.assetId).blocked += BigInt(p.amount)
        for (const i of inputs) this.reserved.add(`${i.transactionId}:${i.vout}`)
        if (change !== null) this.addAddress(n, change.address, null, [native])
      }),
    }
  }
}
