// Deciders: decide(command, state) -> events | error; evolve(state, event) -> state. Pure.
export type Decision<E, X> =
  | { readonly _tag: "Accepted"; readonly events: ReadonlyArray<E> }
  | { readonly _tag: "Rejected"; readonly error: X }

export const accept = <E>(...events: ReadonlyArray<E>): Decision<E, never> => ({ _tag: "Accepted", events })
export const reject = <X>(error: X): Decision<never, X> => ({ _tag: "Rejected", error })

export interface Decider<C, E, S, X> {
  readonly initialState: S
  readonly decide: (command: C, state: S) => Decision<E, X>
  readonly evolve: (state: S, event: E) => S
  readonly isTerminal: (state: S) => boolean
}

export const fold = <E, S>(evolve: (state: S, event: E) => S, initial: S, events: Iterable<E>): S => {
  let state = initial
  for (const event of events) state = evolve(state, event)
  return state
}

export const absurd = (value: never): never => {
  throw new Error(`unhandled: ${JSON.stringify(value)}`)
}
