// Everything a user can read of a world, in one object: every REST read (the audit snapshot's answers), the
// control plane's reads (chains, clock, log, export, rates, webhooks and their deliveries, audit, health).
import { canonicalJson } from "../../src/api/digest/canonical.js"
import { snapshot } from "../../src/api/digest/digest.js"
import type { Simulator } from "../../src/simulator.js"

type Get = (path: string) => Promise<{ status: number; text: string }>

export const worldReads = async (sim: Simulator, get: Get): Promise<Record<string, string>> => {
  const reads: Record<string, string> = { rest: canonicalJson(await snapshot(sim, undefined)) }
  const paths = [
    "/_sim/chains",
    "/_sim/clock",
    "/_sim/events?limit=10000",
    "/_sim/export",
    "/_sim/exchange-rates",
    "/_sim/webhooks",
    "/_sim/audit",
    "/_sim/health",
  ]
  for (const path of paths) {
    const r = await get(path)
    reads[path] = `${r.status} ${r.text}`
  }
  const webhooks = JSON.parse(reads["/_sim/webhooks"]!.slice(4)) as { webhooks: Array<{ id: string }> }
  for (const w of webhooks.webhooks) {
    const path = `/_sim/webhooks/${w.id}/deliveries?limit=1000`
    const r = await get(path)
    reads[path] = `${r.status} ${r.text}`
  }
  return reads
}

/** A GET of the control plane through the simulator's app, with the admin token. */
export const adminGet =
  (fetch: (url: string, init: RequestInit) => Promise<Response>, base: string, token: string): Get =>
  async (path) => {
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } })
    return { status: res.status, text: await res.text() }
  }
