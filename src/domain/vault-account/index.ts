// Vault accounts, addresses and assets: a part of the vault aggregate (stream `vault-<vaultId>`).
export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"
export { decideAccounts } from "./decide.js"
export { evolveAccounts } from "./evolve.js"
