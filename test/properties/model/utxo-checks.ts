// The UTXO invariants, from the log and through GET /vaults/{vaultId}/utxos: no output is spent by two mined
// transactions nor held by two open requests; every output a request reserved is spent (it was mined) or released
// (it was rejected or failed) or still held by that open request; the listing shows exactly that.
import { expect } from "vitest"
import type { CustodyClient } from "../../../src/client/index.js"

interface Logged {
  readonly type: string
  readonly data: unknown
}

interface Listed {
  readonly utxoId: string
  readonly isSpent: boolean
  readonly isReserved: boolean
  readonly reservedByTransactionRequestId?: string
  readonly spentInTransactionId?: string
}

const listAll = async (client: CustodyClient, vaultId: string, isSpent: boolean): Promise<Array<Listed>> => {
  const out: Array<Listed> = []
  let after: string | undefined
  for (;;) {
    const res = await client.call<any>("GET", `/vaults/${vaultId}/utxos`, {
      query: { isSpent: String(isSpent), limit: "500", ...(after !== undefined ? { startingAfter: after } : {}) },
      headers: { "x-api-version": "2026-03-20" },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    out.push(...res.body.data.items)
    if (!res.body.data.hasMore) return out
    after = out[out.length - 1]!.utxoId
  }
}

export const checkUtxos = async (client: CustodyClient, vaultId: string, log: ReadonlyArray<Logged>) => {
  const inputs = new Map<string, ReadonlyArray<string>>()
  const spentBy = new Map<string, string>()
  const closed = new Set<string>()
  for (const e of log) {
    const d = e.data as Record<string, any>
    if (e.type === "TxRequestCreated")
      inputs.set(
        d.requestId,
        (d.inputs as Array<{ transactionId: string; vout: number }>).map((i) => `${i.transactionId}:${i.vout}`),
      )
    if (e.type === "TxRequestRejected" || e.type === "TxRequestFailed" || e.type === "TxRequestMined") closed.add(d.requestId)
    if (e.type === "TxRequestMined" && !d.withErrors)
      for (const id of inputs.get(d.requestId) ?? []) {
        expect(spentBy.get(id), `${id} spent by ${d.requestId} and by ${spentBy.get(id)}`).toBeUndefined()
        spentBy.set(id, d.transactionId)
      }
  }
  const heldBy = new Map<string, string>()
  for (const [requestId, ids] of inputs)
    if (!closed.has(requestId))
      for (const id of ids) {
        expect(heldBy.get(id), `${id} held by ${requestId} and by ${heldBy.get(id)}`).toBeUndefined()
        expect(spentBy.has(id), `${id} held by open ${requestId} though spent`).toBe(false)
        heldBy.set(id, requestId)
      }
  const unspent = await listAll(client, vaultId, false)
  const spent = await listAll(client, vaultId, true)
  expect(
    Object.fromEntries(spent.map((u) => [u.utxoId, u.spentInTransactionId])),
    "the spent outputs listed are those mined requests spent",
  ).toEqual(Object.fromEntries(spentBy))
  expect(
    Object.fromEntries(unspent.filter((u) => u.isReserved).map((u) => [u.utxoId, u.reservedByTransactionRequestId])),
    "the reserved outputs listed are those open requests hold",
  ).toEqual(Object.fromEntries(heldBy))
  for (const u of [...unspent, ...spent])
    expect(u.isSpent === spentBy.has(u.utxoId) && u.isReserved === heldBy.has(u.utxoId), `${u.utxoId} flags`).toBe(true)
}
