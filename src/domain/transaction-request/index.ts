// Transaction requests: a part of the vault aggregate (stream `vault-<vaultId>`), beside the ledger they reserve.
export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"
export { decideTxRequest } from "./decide.js"
export { evolveTxRequest } from "./evolve.js"
