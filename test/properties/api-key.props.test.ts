// Pure properties of the API key aggregate: created once, revoked at most once, revoked is terminal; decide never
// mutates; accepted events fold to the reference status and the first grant; evolve ignores what cannot happen.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { apiKeyDecider, type ApiKeyGrant, type ApiKeyState } from "../../src/domain/api-key/index.js"
import { fold } from "../../src/domain/shared/decider.js"
import { apiKeyCommand, apiKeyEvent } from "./arbitraries/api-key-commands.js"
import { snapshot } from "./snapshot.js"

type Reference = { readonly status: "absent" | "active" | "revoked"; readonly grant?: ApiKeyGrant }

const viewOf = (s: ApiKeyState): Reference =>
  s._tag === "Absent" ? { status: "absent" } : { status: s._tag === "Active" ? "active" : "revoked", grant: s.grant }

describe("api key aggregate", () => {
  it("creation once, revocation once, and nothing after: the fold matches the reference", () => {
    fc.assert(
      fc.property(fc.array(apiKeyCommand, { maxLength: 12 }), (commands) => {
        let state = apiKeyDecider.initialState
        let ref: Reference = { status: "absent" }
        for (const c of commands) {
          const before = snapshot(state)
          const terminal = apiKeyDecider.isTerminal(state)
          const d = apiKeyDecider.decide(c, state)
          expect(snapshot(state)).toBe(before)
          const allowed = c.type === "CreateApiKey" ? ref.status === "absent" : ref.status === "active"
          if (terminal) expect(d._tag).toBe("Rejected")
          if (!allowed) {
            expect(d).toMatchObject({
              _tag: "Rejected",
              error: { _tag: c.type === "CreateApiKey" ? "ApiKeyAlreadyExists" : "ApiKeyNotFound" },
            })
            continue
          }
          if (d._tag !== "Accepted") throw new Error(`refused ${JSON.stringify(d.error)}`)
          state = fold(apiKeyDecider.evolve, state, d.events)
          ref =
            c.type === "CreateApiKey"
              ? { status: "active", grant: c.grant }
              : { status: "revoked", ...(ref.grant !== undefined ? { grant: ref.grant } : {}) }
          expect(viewOf(state)).toEqual(ref)
        }
      }),
    )
  })

  it("evolve is total and quiet: any log folds to the first creation, then the first revocation after it", () => {
    fc.assert(
      fc.property(fc.array(apiKeyEvent, { maxLength: 8 }), (events) => {
        const created = events.findIndex((e) => e.type === "ApiKeyCreated")
        const first = events[created]
        const revoked = created >= 0 && events.slice(created + 1).some((e) => e.type === "ApiKeyRevoked")
        const expected: Reference =
          first === undefined || first.type !== "ApiKeyCreated"
            ? { status: "absent" }
            : { status: revoked ? "revoked" : "active", grant: (({ at: _at, ...g }) => g)(first.data) }
        expect(viewOf(fold(apiKeyDecider.evolve, apiKeyDecider.initialState, events))).toEqual(expected)
      }),
    )
  })
})
