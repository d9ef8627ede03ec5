// The ledger part of the vault aggregate (stream `vault-<vaultId>`): balances, credited deposits, UTXOs.
export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"
export { decideLedger } from "./decide.js"
export { applyEffects, evolveLedger } from "./evolve.js"
export { reserveOf } from "./reserve.js"
export { balanceEffects, visitBalanceEffects, type BalanceEffect } from "./effects.js"
