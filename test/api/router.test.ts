// The app's route table answers every path exactly as Hono's TrieRouter holding the same routes would.
import fc from "fast-check"
import { TrieRouter } from "hono/router/trie-router"
import { describe, expect, it } from "vitest"
import { defaultOperations, defaultSimRoutes } from "../../src/api/app.js"
import { OperationRouter } from "../../src/api/router.js"

// The app's registrations in its order: control-plane middleware, control plane, operations; plus a catch-all.
const routes: ReadonlyArray<readonly [string, string]> = [
  ["ALL", "/_sim/*"],
  ["ALL", "/_sim/*"],
  ...defaultSimRoutes.map((r) => [r.method, r.path] as const),
  ...defaultOperations.map((o) => [o.method, o.path] as const),
]

const build = (list: ReadonlyArray<readonly [string, string]>) => {
  const ours = new OperationRouter<number>()
  const trie = new TrieRouter<number>()
  list.forEach(([method, path], i) => {
    ours.add(method, path, i)
    trie.add(method, path, i)
  })
  return { ours, trie }
}

const words = [...new Set(routes.flatMap(([, path]) => path.split("/")))].filter((w) => w !== "" && !w.startsWith(":") && w !== "*")
const segment = fc.oneof(
  fc.constantFrom(...words),
  fc.constantFrom("", "x", "0123456789abcdef01234567", "main", "test"),
  fc.string({ maxLength: 4 }),
)
const path = fc.array(segment, { minLength: 0, maxLength: 8 }).map((parts) => `/${parts.join("/")}`)
const method = fc.constantFrom("GET", "POST", "PUT", "DELETE")

const sameAnswer = (list: ReadonlyArray<readonly [string, string]>, m: string, p: string) => {
  const { ours, trie } = build(list)
  expect(ours.match(m, p)).toEqual(trie.match(m, p))
}

describe("OperationRouter", () => {
  it("matches like the TrieRouter on the app's routes, for paths made of their segments", () => {
    fc.assert(fc.property(method, path, (m, p) => sameAnswer(routes, m, p)))
  })

  it("matches like the TrieRouter on the routes' own shapes, each parameter filled in (empty ones too)", () => {
    const value = fc.constantFrom("", "a", "0123456789abcdef01234567", "main", "addresses", "assets", "%41")
    const filled = fc
      .tuple(fc.constantFrom(...routes.filter(([m]) => m !== "ALL")), fc.array(value, { minLength: 6, maxLength: 6 }), method)
      .map(([[, p], values, m]) => [m, p.replace(/:[A-Za-z0-9_]+/g, () => values.shift() ?? "")] as const)
    fc.assert(fc.property(filled, ([m, p]) => sameAnswer(routes, m, p)))
  })

  it("keeps registration order when a catch-all and an operation both match", () => {
    const list: ReadonlyArray<readonly [string, string]> = [
      ["GET", "/vaults/:id"],
      ["ALL", "*"],
      ["GET", "/vaults/main"],
      ["GET", "/:any/main"],
    ]
    const { ours } = build(list)
    expect(ours.match("GET", "/vaults/main")).toEqual([
      [
        [0, { id: "main" }],
        [1, {}],
        [2, {}],
        [3, { any: "vaults" }],
      ],
    ])
    for (const p of ["/vaults/main", "/vaults/", "/", "/x/main", "/vaults/main/"]) sameAnswer(list, "GET", p)
  })

  it("never lets a parameter match an empty segment", () => {
    const { ours } = build(routes)
    expect(ours.match("GET", "/vaults/")).toEqual([[]])
    expect(ours.match("GET", "/vaults//assets")).toEqual([[]])
    expect(ours.match("GET", "/vaults")[0]).toHaveLength(1)
  })

  it("answers a parameterless path the same when asked again, and again after a route is added", () => {
    const list: Array<readonly [string, string]> = [
      ["GET", "/vaults"],
      ["GET", "/vaults/:networkType"],
    ]
    const { ours } = build(list)
    const first = ours.match("GET", "/vaults")
    expect(ours.match("GET", "/vaults")).toEqual(first)
    expect(first).toEqual([[[0, {}]]])
    ours.add("GET", "/:any", 2)
    list.push(["GET", "/:any"])
    for (const p of ["/vaults", "/vaults/main", "/other"]) expect(ours.match("GET", p)).toEqual(build(list).trie.match("GET", p))
  })

  it("answers paths with parameters the same when asked again, past the number of answers it keeps", () => {
    const { ours, trie } = build(routes)
    const paths = Array.from({ length: 6_000 }, (_, i) => `/vaults/${i.toString(16).padStart(24, "0")}/assets`)
    for (const p of paths) expect(ours.match("GET", p)).toEqual(trie.match("GET", p))
    for (const p of [...paths.slice(0, 10), ...paths.slice(-10)]) expect(ours.match("GET", p)).toEqual(trie.match("GET", p))
    const again = ours.match("GET", paths.at(-1)!)
    expect(ours.match("GET", paths.at(-1)!)).toEqual(again)
  })
})
