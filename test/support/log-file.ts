// Helpers for scenario files in tests: export a harness's log, edit its events, renumber revisions.
import type { Harness } from "./harness.js"

export interface Line {
  stream: string
  revision: number
  id: string
  type: string
  data: any
  metadata: any
  position?: number
}

/** The full copy by default (secrets and seed: a replay answers the same keys); `{ includeSecrets: false }` as exports are by default. */
export const exportText = async (h: Harness, options: { readonly includeSecrets?: boolean } = {}): Promise<string> => {
  const query = options.includeSecrets === false ? "" : "?includeSecrets=true"
  const res = await h.app.request(`http://sim.test/_sim/export${query}`, { headers: { authorization: `Bearer ${h.sim.adminToken}` } })
  if (res.status !== 200) throw new Error(`export failed: ${res.status}`)
  return res.text()
}

export const parseFile = (text: string): { header: string; events: Array<Line> } => {
  const [header, ...rest] = text.trimEnd().split("\n")
  return { header: header!, events: rest.map((l) => JSON.parse(l) as Line) }
}

/** Writes the events back with revisions renumbered per stream (after lines were removed or inserted). */
export const writeFile = (header: string, events: ReadonlyArray<Line>): string => {
  const next = new Map<string, number>()
  const lines = events.map((e) => {
    const revision = next.get(e.stream) ?? 0
    next.set(e.stream, revision + 1)
    const { position: _p, ...rest } = e
    return JSON.stringify({ ...rest, revision })
  })
  return `${[header, ...lines].join("\n")}\n`
}

export const importText = async (h: Harness, text: string) => {
  const res = await h.app.request("http://sim.test/_sim/import", {
    method: "POST",
    headers: { authorization: `Bearer ${h.sim.adminToken}`, "content-type": "application/x-ndjson" },
    body: text,
  })
  return { status: res.status, body: (await res.json()) as any }
}
