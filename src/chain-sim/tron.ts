// Tron resources as the simulated chain keeps them (Stake 2.0): per address the TRX frozen for bandwidth and for
// energy, delegations with their locks (in blocks), unfrozen TRX waiting to be withdrawn, the staked resources used
// (regenerating linearly over 24 hours of simulated time, as on the real chain), and TRC-20 allowances.
// Persistent values: a change makes new maps, since the chain decider folds states it may drop.
import { findAsset, type NetworkInfo } from "../domain/chains/index.js"
import { stakedUse, tronCost, type StakedUnits, type TronTxKind } from "../domain/chains/fees.js"

export type { TronOperation, TronResource } from "../domain/chains/tron-operation.js"
import { tronTxKind, type TronOperation, type TronResource } from "../domain/chains/tron-operation.js"

export interface Usage {
  readonly used: number
  readonly at: number
}

type PerResource<A> = { readonly [R in TronResource]: A }

export interface TronAccount {
  /** TRX frozen by the address itself, delegated or not. */
  readonly frozen: PerResource<bigint>
  readonly delegatedOut: PerResource<bigint>
  readonly delegatedIn: PerResource<bigint>
  /** Unfrozen TRX, withdrawable from `expiresAt` (simulated ms) on. */
  readonly unfreezing: ReadonlyArray<{ readonly amount: bigint; readonly expiresAt: number }>
  /** Staked resource units used, as of `at` (they regenerate over the window). */
  readonly usage: PerResource<Usage>
}

/** A delegation from one address to another of one resource: the part free to take back, the part locked until a height. */
export interface Delegation {
  readonly unlocked: bigint
  readonly locked: bigint
  readonly lockedUntil: number
}

export interface TronLedger {
  readonly accounts: ReadonlyMap<string, TronAccount>
  /** `from|to|resource` → delegation. */
  readonly delegations: ReadonlyMap<string, Delegation>
  /** `token|owner|spender` → allowance, token base units. */
  readonly allowances: ReadonlyMap<string, bigint>
}

/** What executing a mined tron transaction did (the ChainTxExecuted event's data, less chain and time). */
export interface TronExecution {
  readonly transactionId: string
  /** The address whose operation it is (the sender, or the token holder). */
  readonly address: string
  /** The address whose resources (and TRX) pay for it. */
  readonly payer: string
  /** Staked bandwidth and energy units it consumed (the rest is burned as TRX, or comes from the free bandwidth). */
  readonly bandwidth: number
  readonly energy: number
  readonly operation?: TronOperation
  /** Expired unfrozen TRX it moved back to the balance (withdraw, and unfreeze, which withdraws what expired). */
  readonly withdrawn?: string
  /** Why it failed on chain (fee spent, nothing else done). */
  readonly failed?: string
  readonly height: number
  readonly blockAt: number
}

export const SUN_PER_TRX = 1_000_000n
/** 24 hours: the window over which used resources regenerate. */
export const WINDOW_MS = 86_400_000
export const MAX_LOCK_PERIOD = 864_000
/** lockPeriod given when lock is asked for without one (3 days of blocks). */
export const DEFAULT_LOCK_PERIOD = 86_400
export const MAX_UNFREEZING = 32
export const UINT256_MAX = (1n << 256n) - 1n

export const EMPTY_LEDGER: TronLedger = { accounts: new Map(), delegations: new Map(), allowances: new Map() }

const zero: PerResource<bigint> = { bandwidth: 0n, energy: 0n }
const unused: PerResource<Usage> = { bandwidth: { used: 0, at: 0 }, energy: { used: 0, at: 0 } }
export const EMPTY_ACCOUNT: TronAccount = { frozen: zero, delegatedOut: zero, delegatedIn: zero, unfreezing: [], usage: unused }

const delegationKey = (from: string, to: string, r: TronResource) => `${from}|${to}|${r}`
export const allowanceKey = (token: string, owner: string, spender: string) => `${token}|${owner}|${spender}`

export const accountOf = (l: TronLedger, address: string): TronAccount => l.accounts.get(address) ?? EMPTY_ACCOUNT

/** Used units still counted at `at`: they fall linearly to nothing over the window. */
export const usageAt = (u: Usage, at: number): number => {
  const dt = Math.max(0, at - u.at)
  return dt >= WINDOW_MS ? 0 : Math.floor((u.used * (WINDOW_MS - dt)) / WINDOW_MS)
}

const fees = (n: NetworkInfo) => (n.fees._tag === "TronResources" ? n.fees : undefined)

/** TRX whose resource the address has: its own stake not delegated away, plus what others delegated to it. */
export const stakeFor = (a: TronAccount, r: TronResource): bigint => a.frozen[r] - a.delegatedOut[r] + a.delegatedIn[r]

/** Staked units a day the address gets of a resource. */
export const limitOf = (n: NetworkInfo, a: TronAccount, r: TronResource): number => {
  const f = fees(n)
  if (f === undefined) return 0
  return Number((stakeFor(a, r) * (r === "bandwidth" ? f.bandwidthPerTrx : f.energyPerTrx)) / SUN_PER_TRX)
}

export const availableUnits = (n: NetworkInfo, a: TronAccount, r: TronResource, at: number): number =>
  Math.max(0, limitOf(n, a, r) - usageAt(a.usage[r], at))

/** The staked units an address has free at `at` (none for an address that never staked nor was delegated to). */
export const freeUnits = (n: NetworkInfo, l: TronLedger, address: string, at: number): StakedUnits => {
  const a = l.accounts.get(address)
  return a === undefined
    ? { bandwidth: 0, energy: 0 }
    : { bandwidth: availableUnits(n, a, "bandwidth", at), energy: availableUnits(n, a, "energy", at) }
}

export const expiredAt = (a: TronAccount, at: number): bigint => a.unfreezing.reduce((s, u) => (u.expiresAt <= at ? s + u.amount : s), 0n)

export const undelegatable = (l: TronLedger, from: string, to: string, r: TronResource, height: number): bigint => {
  const d = l.delegations.get(delegationKey(from, to, r))
  return d === undefined ? 0n : d.unlocked + (height >= d.lockedUntil ? d.locked : 0n)
}

/** Blocks left of the locked delegation from → to of a resource at `height` (0 when none is locked). */
export const remainingLock = (l: TronLedger, from: string, to: string, r: TronResource, height: number): number => {
  const d = l.delegations.get(delegationKey(from, to, r))
  return d === undefined || d.locked === 0n ? 0 : Math.max(0, d.lockedUntil - height)
}

/** The delegations an address made or received (for the overview). */
export const delegationsOf = (l: TronLedger, address: string) =>
  [...l.delegations].flatMap(([key, d]) => {
    const [from, to, resource] = key.split("|") as [string, string, TronResource]
    return from === address || to === address ? [{ from, to, resource, ...d }] : []
  })

export const txKindOf = (t: { readonly assetId: string; readonly operation?: TronOperation }): TronTxKind =>
  tronTxKind(findAsset(t.assetId)?.type !== "TOKEN", t.operation)

/**
 * Why the chain refuses an operation from `address` at `height` and time `at` (the node's contract validation),
 * or undefined. TRX balances are not the chain's to check here: the vault reserved what a freeze takes.
 */
export const refusal = (l: TronLedger, address: string, op: TronOperation, height: number, at: number): string | undefined => {
  const a = accountOf(l, address)
  switch (op.type) {
    case "freeze":
      return BigInt(op.amount) < SUN_PER_TRX ? "freeze amount must be at least 1 TRX" : undefined
    case "unfreeze": {
      const free = a.frozen[op.resource] - a.delegatedOut[op.resource]
      if (BigInt(op.amount) <= 0n || BigInt(op.amount) > free)
        return `unfreeze amount exceeds the TRX frozen for ${op.resource} and not delegated (${free} SUN)`
      return a.unfreezing.filter((u) => u.expiresAt > at).length >= MAX_UNFREEZING
        ? `at most ${MAX_UNFREEZING} unfreezes may wait at once`
        : undefined
    }
    case "withdraw":
      return expiredAt(a, at) === 0n ? "no unfrozen TRX has passed its waiting period" : undefined
    case "delegate": {
      const free = a.frozen[op.resource] - a.delegatedOut[op.resource]
      if (op.receiver === address) return "cannot delegate to the delegating address"
      if (BigInt(op.amount) < SUN_PER_TRX) return "delegate amount must be at least 1 TRX"
      if (BigInt(op.amount) > free) return `delegate amount exceeds the TRX frozen for ${op.resource} and not delegated (${free} SUN)`
      if (op.lockPeriod < 0 || op.lockPeriod > MAX_LOCK_PERIOD) return `lockPeriod must be from 0 to ${MAX_LOCK_PERIOD} blocks`
      const remaining = remainingLock(l, address, op.receiver, op.resource, height)
      return op.lockPeriod > 0 && op.lockPeriod < remaining
        ? `lockPeriod must be at least the ${remaining} blocks left of the previous locked delegation`
        : undefined
    }
    case "undelegate": {
      if (op.receiver === address) return "cannot undelegate from the delegating address"
      const free = undelegatable(l, address, op.receiver, op.resource, height)
      return BigInt(op.amount) <= 0n || BigInt(op.amount) > free
        ? `undelegate amount exceeds what may be taken back from ${op.receiver} now (${free} SUN)`
        : undefined
    }
    case "approve":
    case "transfer-from":
      return undefined
  }
}

interface Executable {
  readonly transactionId: string
  readonly from: string
  readonly assetId: string
  readonly feePayer?: string
  readonly operation?: TronOperation
  readonly failsInExecution?: boolean
}

/**
 * Executes a mined transaction: the staked bandwidth it takes (all it needs, or none: then the free allowance or a
 * TRX burn pays), the staked energy (as much as there is; the rest is burned), and its operation. Undefined when
 * there is nothing to record (no operation, no staked resource): then the chain's state does not change.
 */
export const execute = (n: NetworkInfo, l: TronLedger, t: Executable, height: number, blockAt: number): TronExecution | undefined => {
  const cost = tronCost(n, txKindOf(t))
  if (cost === undefined) return undefined
  const payer = t.feePayer ?? t.from
  const { bandwidth, energy } = stakedUse(cost, freeUnits(n, l, payer, blockAt))
  const op = t.operation
  if (op === undefined && bandwidth === 0 && energy === 0) return undefined
  let failed: string | undefined
  if (t.failsInExecution === true) failed = "execution failed (injected fault)"
  else if (op !== undefined) failed = op.type === "transfer-from" ? overAllowance(l, t.from, op) : refusal(l, t.from, op, height, blockAt)
  const a = accountOf(l, t.from)
  const withdrawn = failed === undefined && (op?.type === "withdraw" || op?.type === "unfreeze") ? expiredAt(a, blockAt) : 0n
  return {
    transactionId: t.transactionId,
    address: t.from,
    payer,
    bandwidth,
    energy,
    ...(op !== undefined ? { operation: op } : {}),
    ...(withdrawn > 0n ? { withdrawn: withdrawn.toString() } : {}),
    ...(failed !== undefined ? { failed } : {}),
    height,
    blockAt,
  }
}

const overAllowance = (l: TronLedger, owner: string, op: Extract<TronOperation, { type: "transfer-from" }>): string | undefined => {
  const allowance = l.allowances.get(allowanceKey(op.token, owner, op.spender)) ?? 0n
  return allowance < BigInt(op.amount) ? `REVERT: transfer amount exceeds allowance (${allowance})` : undefined
}

const per = <A>(x: PerResource<A>, r: TronResource, v: A): PerResource<A> => ({ ...x, [r]: v })

/** The ledger after an execution: the payer's usage, then (unless it failed) the operation's effect. */
export const applyExecution = (n: NetworkInfo, l: TronLedger, e: TronExecution): TronLedger => {
  const accounts = new Map(l.accounts)
  const get = (address: string) => accounts.get(address) ?? EMPTY_ACCOUNT
  const put = (address: string, a: TronAccount) => accounts.set(address, a)
  if (e.bandwidth > 0 || e.energy > 0) {
    const p = get(e.payer)
    let usage = p.usage
    if (e.bandwidth > 0) usage = per(usage, "bandwidth", { used: usageAt(p.usage.bandwidth, e.blockAt) + e.bandwidth, at: e.blockAt })
    if (e.energy > 0) usage = per(usage, "energy", { used: usageAt(p.usage.energy, e.blockAt) + e.energy, at: e.blockAt })
    put(e.payer, { ...p, usage })
  }
  const op = e.operation
  if (op === undefined || e.failed !== undefined) return { ...l, accounts }
  const a = get(e.address)
  const delay = n.fees._tag === "TronResources" ? n.fees.unfreezeDelayDays * WINDOW_MS : 0
  const pending = () => a.unfreezing.filter((u) => u.expiresAt > e.blockAt)
  switch (op.type) {
    case "freeze":
      put(e.address, { ...a, frozen: per(a.frozen, op.resource, a.frozen[op.resource] + BigInt(op.amount)) })
      return { ...l, accounts }
    case "unfreeze":
      put(e.address, {
        ...a,
        frozen: per(a.frozen, op.resource, a.frozen[op.resource] - BigInt(op.amount)),
        unfreezing: [...pending(), { amount: BigInt(op.amount), expiresAt: e.blockAt + delay }],
      })
      return { ...l, accounts }
    case "withdraw":
      put(e.address, { ...a, unfreezing: pending() })
      return { ...l, accounts }
    case "delegate":
    case "undelegate": {
      const sign = op.type === "delegate" ? 1n : -1n
      const amount = BigInt(op.amount) * sign
      const to = op.receiver === e.address ? a : get(op.receiver)
      put(e.address, { ...a, delegatedOut: per(a.delegatedOut, op.resource, a.delegatedOut[op.resource] + amount) })
      put(op.receiver, { ...to, delegatedIn: per(to.delegatedIn, op.resource, to.delegatedIn[op.resource] + amount) })
      const key = delegationKey(e.address, op.receiver, op.resource)
      const d = l.delegations.get(key) ?? { unlocked: 0n, locked: 0n, lockedUntil: 0 }
      const delegations = new Map(l.delegations)
      if (op.type === "delegate")
        delegations.set(
          key,
          op.lockPeriod > 0
            ? { ...d, locked: d.locked + BigInt(op.amount), lockedUntil: e.height + op.lockPeriod }
            : { ...d, unlocked: d.unlocked + BigInt(op.amount) },
        )
      else {
        // Taken back from the unlocked part first, then from a lock that has ended.
        const fromUnlocked = BigInt(op.amount) < d.unlocked ? BigInt(op.amount) : d.unlocked
        const next = { ...d, unlocked: d.unlocked - fromUnlocked, locked: d.locked - (BigInt(op.amount) - fromUnlocked) }
        if (next.unlocked === 0n && next.locked === 0n) delegations.delete(key)
        else delegations.set(key, next)
      }
      return { ...l, accounts, delegations }
    }
    case "approve":
      return { ...l, accounts, allowances: new Map(l.allowances).set(allowanceKey(op.token, e.address, op.spender), BigInt(op.allowance)) }
    case "transfer-from": {
      const key = allowanceKey(op.token, e.address, op.spender)
      const allowance = l.allowances.get(key) ?? 0n
      // An unlimited allowance (uint256 max) is not spent down, as TRC-20 tokens such as USDT do.
      if (allowance === UINT256_MAX) return { ...l, accounts }
      return { ...l, accounts, allowances: new Map(l.allowances).set(key, allowance - BigInt(op.amount)) }
    }
  }
}
