// custody-sim: the simulator and its HTTP app, to embed in a process of your own (the CLI's `serve` does this).
export { createSimulator, type Simulator, type SimulatorOptions, type Fixture, type CreatedCredentials } from "./simulator.js"
export { createApp, defaultOperations, defaultSimRoutes, type AppOptions } from "./api/app.js"
export { openStore, type OpenedStore, type StoreKind, type StoreOptions } from "./adapters/stores.js"
export { CustodyClient, signRequest, verifyWebhookSignature, type Credentials } from "./client/index.js"
