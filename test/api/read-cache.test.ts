// A repeated read at one log position is answered from the read cache: each answer must still be the one its own
// request asks for (the key's grant, the version, the query, x-sim-as-of), however the requests alternate.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/signing.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"

let h: Harness
let scoped: Credentials
let at2026: Credentials

beforeAll(async () => {
  h = await startHarness()
  scoped = await createKey(h, { vaultIds: [h.testVaultId] })
  at2026 = await createKey(h, { apiVersion: "2026-03-20" })
})
afterAll(() => h.close())

type Read = { readonly url: string; readonly creds?: Credentials; readonly override?: Record<string, string> }

const answer = async (r: Read) => {
  const res = await h.raw({
    method: "GET",
    url: r.url,
    ...(r.creds !== undefined ? { creds: r.creds } : {}),
    ...(r.override !== undefined ? { override: r.override } : {}),
  })
  const { requestId: _id, ...rest } = res.body as Record<string, unknown>
  return { status: res.status, body: rest }
}

describe("the read cache", () => {
  it("answers each read as its own key, version, query and as-of ask, in any order and repeated", async () => {
    const position = h.sim.models.position
    const both = [h.testVaultId, h.mainVaultId].sort()
    type Body = { apiVersion: string; data: { items?: ReadonlyArray<{ id: string }>; hasMore?: boolean; limit?: number; item?: unknown } }
    const ids = (b: Body) => (b.data.items ?? []).map((v) => v.id).sort()
    const reads: ReadonlyArray<Read & { readonly expect: (b: Body) => void }> = [
      { url: "/vaults", expect: (b) => expect([b.apiVersion, ids(b)]).toEqual(["2024-05-09", both]) },
      { url: "/vaults", creds: scoped, expect: (b) => expect([b.apiVersion, ids(b)]).toEqual(["2024-05-09", [h.testVaultId]]) },
      { url: "/vaults", creds: at2026, expect: (b) => expect([b.apiVersion, ids(b)]).toEqual(["2026-03-20", both]) },
      {
        url: "/vaults",
        override: { "x-api-version": "2026-03-20" },
        expect: (b) => expect([b.apiVersion, ids(b)]).toEqual(["2026-03-20", both]),
      },
      { url: "/vaults?limit=1", creds: at2026, expect: (b) => expect([b.data.limit, b.data.hasMore, ids(b).length]).toEqual([1, true, 1]) },
      {
        url: "/vaults",
        override: { "x-sim-as-of": "position:1" },
        expect: (b) => expect([b.apiVersion, ids(b).length]).toEqual(["2024-05-09", 1]),
      },
      {
        url: "/vaults",
        creds: at2026,
        override: { "x-sim-as-of": "position:1" },
        expect: (b) => expect([b.apiVersion, ids(b).length]).toEqual(["2026-03-20", 1]),
      },
      {
        url: `/vaults/${h.testVaultId}/assets`,
        expect: (b) => expect([b.apiVersion, b.data.item]).toEqual(["2024-05-09", { assets: [] }]),
      },
      { url: `/vaults/${h.testVaultId}/assets`, creds: at2026, expect: (b) => expect(b.apiVersion).toBe("2026-03-20") },
    ]
    const first = []
    for (const r of reads) {
      const a = await answer(r)
      expect(a.status).toBe(200)
      r.expect(a.body as Body)
      first.push(a)
    }
    expect(h.sim.models.position).toBe(position)
    for (const order of [reads, [...reads].reverse(), reads])
      for (const r of order) expect(await answer(r)).toEqual(first[reads.indexOf(r)])
  })
})
