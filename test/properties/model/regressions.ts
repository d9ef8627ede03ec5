// Counterexamples the model-based test found, shrunk, kept as fixed examples so that they run on every seed.
import type fc from "fast-check"
import type { Model, Real } from "./world.js"

export interface Regression {
  readonly found: string
  readonly commands: ReadonlyArray<fc.AsyncCommand<Model, Real>>
}

export const REGRESSIONS: ReadonlyArray<Regression> = []
