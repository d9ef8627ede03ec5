// The hook that sees every answer of the spec's operations (the contract test validates them against the OpenAPI
// documents). A module of its own, importing nothing: the test set-up installs the hook without loading the app.

export interface Observed<Op> {
  readonly operation: Op
  readonly status: number
  readonly body: string
}

let observer: ((answer: Observed<unknown>) => void) | undefined

/** Installs (or, with undefined, removes) the hook. Read when an operation is mounted: apps mounted without one pay nothing per request. */
export const observeAnswers = <Op>(fn: ((answer: Observed<Op>) => void) | undefined): void => {
  observer = fn as ((answer: Observed<unknown>) => void) | undefined
}

/** The hook installed now, if any. */
export const answerObserver = <Op>(): ((answer: Observed<Op>) => void) | undefined => observer
