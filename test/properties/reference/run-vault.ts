// Drives the vault decider and its reference side by side over generated intents, checking after every command:
// decide never mutates, a refusal is the expected one, accepted events fold to the reference, only legal status
// moves happen, terminal requests refuse every command, and no holding is overdrawn.
import { expect } from "vitest"
import { vaultDecider, type VaultAggregateCommand, type VaultState } from "../../../src/domain/vault/index.js"
import { ASSETS, XRP_RESERVE } from "../arbitraries/catalogue.js"
import { NOW } from "../arbitraries/ids.js"
import type { VaultIntent } from "../arbitraries/vault-commands.js"
import { snapshot } from "../snapshot.js"
import { INITIAL, LEGAL, TERMINAL, wireOf } from "../status-machine.js"
import { VaultReference } from "./vault.js"

type Active = Extract<VaultState, { _tag: "Active" }>

const statuses = (s: VaultState) => new Map(s._tag === "Active" ? [...s.requests].map(([id, r]) => [id, wireOf[r.status]]) : [])

const sorted = (xs: Iterable<string>) => [...xs].sort()

const view = (s: VaultState) =>
  s._tag !== "Active"
    ? undefined
    : {
        policy: s.policy,
        accounts: sorted(s.accounts.accounts.keys()),
        addresses: sorted(
          [...s.accounts.addresses.values()].map(
            (a) => `${a.blockchain}|${a.network}|${a.address}|${a.vaultAccountId}|${sorted(a.assets)}`,
          ),
        ),
        holdings: sorted(
          [...s.ledger.holdings].filter(([, h]) => h.total !== 0n || h.blocked !== 0n).map(([k, h]) => `${k}=${h.total}/${h.blocked}`),
        ),
        credited: sorted(s.ledger.credited),
        utxos: sorted([...s.ledger.utxos].map(([k, u]) => `${k}|${u.address}|${u.amount}`)),
        reserved: sorted(s.ledger.reservedOutputs),
        requests: sorted([...s.requests].map(([id, r]) => `${id}:${r.status}`)),
      }

const referenceView = (r: VaultReference) =>
  !r.exists
    ? undefined
    : {
        policy: r.policy,
        accounts: sorted(r.accounts),
        addresses: sorted(
          [...r.addresses.values()].map(
            (a) => `${a.network.blockchain}|${a.network.network}|${a.address}|${a.account}|${sorted(a.assets)}`,
          ),
        ),
        holdings: sorted(
          [...r.holdings].filter(([, h]) => h.total !== 0n || h.blocked !== 0n).map(([k, h]) => `${k}=${h.total}/${h.blocked}`),
        ),
        credited: sorted(r.credited),
        utxos: sorted([...r.utxos].map(([k, u]) => `${k}|${u.address}|${u.amount}`)),
        reserved: sorted(r.reserved),
        requests: sorted([...r.requests].map(([id, x]) => `${id}:${x.status}`)),
      }

/** No overdraft; what is blocked is exactly what open requests hold; XRP's reserve is never spent; UTXOs sum to balances. */
const expectLedgerInvariants = (s: Active) => {
  const held = new Map<string, bigint>()
  for (const r of s.requests.values())
    for (const p of r.held ? r.draft.reservations : []) {
      const key = `${r.draft.blockchain}|${r.draft.network}|${p.address}|${p.assetId}`
      held.set(key, (held.get(key) ?? 0n) + BigInt(p.amount))
    }
  for (const [key, h] of s.ledger.holdings) {
    expect(h.total >= 0n && h.blocked >= 0n && h.blocked <= h.total, `${key}: total ${h.total}, blocked ${h.blocked}`).toBe(true)
    expect(h.blocked, `${key}: blocked vs open reservations`).toBe(held.get(key) ?? 0n)
    if (key.startsWith("xrp|") && key.endsWith(`|${ASSETS[3].id}`) && h.blocked > 0n)
      expect(h.total - h.blocked >= XRP_RESERVE, `${key}: reserve spent`).toBe(true)
  }
  for (const key of s.ledger.reservedOutputs) expect(s.ledger.utxos.has(key), `reserved output ${key} is unspent`).toBe(true)
  const outputs = new Map<string, bigint>()
  for (const u of s.ledger.utxos.values()) outputs.set(u.address, (outputs.get(u.address) ?? 0n) + u.amount)
  for (const [key, h] of s.ledger.holdings)
    if (key.startsWith("bitcoin|")) expect(outputs.get(key.split("|")[2]!) ?? 0n, `${key}: unspent outputs vs balance`).toBe(h.total)
}

const requestCommands = (requestId: string): ReadonlyArray<VaultAggregateCommand> => [
  { type: "ApproveTxRequest", requestId, now: NOW },
  { type: "RejectTxRequest", requestId, reason: "late", now: NOW },
  { type: "FailTxRequest", requestId, reason: "late", now: NOW },
  { type: "RecordTxMined", requestId, blockHeight: 9, blockHash: "0x9", fee: "1", withErrors: false, debits: [], credits: [], now: NOW },
  { type: "RecordTxSucceeded", requestId, confirmations: 9, now: NOW },
]

const expectTerminalRefusals = (s: Active) => {
  const before = snapshot(s)
  for (const [id, r] of s.requests)
    if (TERMINAL.has(wireOf[r.status]))
      for (const c of requestCommands(id))
        expect(vaultDecider.decide(c, s), `${c.type} on ${r.status}`).toMatchObject({
          _tag: "Rejected",
          error: { _tag: "IllegalTxTransition" },
        })
  expect(snapshot(s)).toBe(before)
}

/** Runs intents against the decider and the reference side by side; throws at the first disagreement. */
export const runVault = (intents: ReadonlyArray<VaultIntent>) => {
  const ref = new VaultReference()
  let state = vaultDecider.initialState
  for (const intent of intents) {
    const { command, expected } = ref.resolve(intent)
    const before = snapshot(state)
    const decision = vaultDecider.decide(command, state)
    expect(snapshot(state), `decide mutated the state on ${command.type}`).toBe(before)
    if (!expected.accept) {
      expect(decision, command.type).toMatchObject({ _tag: "Rejected", error: { _tag: expected.error } })
      continue
    }
    if (decision._tag === "Rejected") throw new Error(`${command.type} refused: ${JSON.stringify(decision.error)}`)
    for (const e of decision.events) {
      const prev = statuses(state)
      state = vaultDecider.evolve(state, e)
      for (const [id, to] of statuses(state)) {
        const from = prev.get(id)
        if (from === to) continue
        expect(from === undefined ? INITIAL.has(to) : LEGAL[from].includes(to), `${id}: ${from ?? "(new)"} → ${to} on ${e.type}`).toBe(true)
      }
    }
    expected.apply()
    expect(view(state), `after ${command.type}`).toEqual(referenceView(ref))
    if (state._tag === "Active") {
      expectLedgerInvariants(state)
      expectTerminalRefusals(state)
    }
  }
  return state
}
