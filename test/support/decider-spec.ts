// Given / when / then for deciders (in the manner of emmett's DeciderSpecification).
import { expect } from "vitest"
import { fold, type Decider } from "../../src/domain/shared/decider.js"

export const deciderSpec = <C, E, S, X>(decider: Decider<C, E, S, X>) => ({
  given: (events: ReadonlyArray<E>) => ({
    when: (command: C) => {
      const state = fold(decider.evolve, decider.initialState, events)
      const decision = decider.decide(command, state)
      return {
        then: (expected: ReadonlyArray<E> | ((events: ReadonlyArray<E>) => void)) => {
          expect(decision._tag).toBe("Accepted")
          if (decision._tag !== "Accepted") return
          if (typeof expected === "function") expected(decision.events)
          else expect(decision.events).toEqual(expected)
        },
        thenFails: (error: Partial<X>) => {
          expect(decision).toEqual({ _tag: "Rejected", error: expect.objectContaining(error as Record<string, unknown>) })
        },
      }
    },
  }),
})
