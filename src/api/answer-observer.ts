// A hook that sees every answer of the spec's operations (the contract test validates them against the OpenAPI
// documents). Read when an operation is mounted: apps created without an observer pay nothing per request.
import type { Operation } from "./operation.js"

export interface ObservedAnswer {
  readonly operation: Operation
  readonly status: number
  readonly body: string
}

let observer: ((answer: ObservedAnswer) => void) | undefined

export const observeAnswers = (fn: ((answer: ObservedAnswer) => void) | undefined): void => {
  observer = fn
}

export const answerObserver = () => observer
