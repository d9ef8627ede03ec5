// A UTXO transfer's `prepareStrategy`: the service's documents spell each strategy both ways (`minimize_dust`,
// `minimize-dust`); the coin selection knows one spelling.
import type { PrepareStrategy } from "../../domain/transaction-request/coin-selection.js"

/** Either spelling of a strategy, as the checks accept it (each endpoint lists them in the order its errors name them). */
export type StrategyText = "minimize_dust" | "optimize_size" | "minimize-dust" | "optimize-size"

/** The coin selection's name of a strategy in either spelling. */
export const strategyOf = (text: StrategyText): PrepareStrategy =>
  text === "minimize_dust" || text === "minimize-dust" ? "minimize-dust" : "optimize-size"
