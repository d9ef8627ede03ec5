// `operation({ ... })` types a handler's input from the declaration: each path parameter a string, a required body
// attribute its check's type, an optional one that or undefined, a body changed between versions either of them.
import { describe, expect, expectTypeOf, it } from "vitest"
import { checks } from "../../../src/api/body.js"
import { operation } from "../../../src/api/operation.js"
import type { PathParamNames } from "../../../src/api/pipeline/typed.js"

describe("typed operations", () => {
  it("name a path's parameters", () => {
    expectTypeOf<PathParamNames<"/vaults/:vaultId/accounts/:accountId/balance">>().toEqualTypeOf<"vaultId" | "accountId">()
    expectTypeOf<PathParamNames<"/info/:blockchain/:network">>().toEqualTypeOf<"blockchain" | "network">()
    expectTypeOf<PathParamNames<"/vaults">>().toEqualTypeOf<never>()
  })

  it("give the handler its declared input typed, and the handler runs on what the pipeline gives it", () => {
    // A generic check (oneOf) named outside the call: inline, its inference would fix the body's type too early.
    const speed = checks.oneOf(["slow", "fast"])
    const op = operation({
      id: "example",
      doc: { summary: "Example", description: "An operation of this test only.", tags: ["Vaults"] },
      method: "POST",
      path: "/vaults/:vaultId/things/:thing",
      scope: "write",
      body: { required: { label: checks.string({ min: 1 }) }, optional: { speed } },
      bodySince: { "2026-03-20": { required: { label: checks.string({ min: 1 }), hidden: checks.boolean() } } },
      query: { optional: { flag: checks.booleanText() } },
      handle: ({ params, item, query }) => {
        expectTypeOf(params).toEqualTypeOf<{ readonly vaultId: string; readonly thing: string }>()
        expectTypeOf(item.label).toEqualTypeOf<string>()
        if ("speed" in item) expectTypeOf(item.speed).toEqualTypeOf<"slow" | "fast" | undefined>()
        if ("hidden" in item) expectTypeOf(item.hidden).toEqualTypeOf<boolean>()
        expectTypeOf(query.flag).toEqualTypeOf<"true" | "false" | undefined>()
        expectTypeOf(query.limit).toEqualTypeOf<string | undefined>()
        return { status: 201, item: { label: item.label, vaultId: params.vaultId } }
      },
    })
    expect(op.path).toBe("/vaults/:vaultId/things/:thing")
    const ctx = { params: { vaultId: "v1", thing: "t" }, query: {}, item: { label: "a" }, requestId: "r", apiVersion: "2024-01-01" }
    expect(op.handle(ctx as never, {} as never)).toEqual({ status: 201, item: { label: "a", vaultId: "v1" } })
  })
})
