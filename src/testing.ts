// custody-sim/testing: the simulator in-process for tests (no socket, a frozen clock, signed clients, the control
// plane) and fast-check arbitraries of its inputs, built on the caller's own fast-check.
export {
  DEFAULT_BASE_URL,
  DEFAULT_START,
  IN_PROCESS_FIXTURE,
  startInProcess,
  type AdminResponse,
  type InProcess,
  type InProcessOptions,
  type InProcessWorld,
} from "./testing/in-process.js"
export type { WorldHandle } from "./testing/world-handle.js"
export type { FaultControls, FaultInfo, FaultInput } from "./testing/faults.js"
export {
  isolateEachTest,
  sharedSimulator,
  type SharedSimulator,
  type SharedSimulatorOptions,
  type SuiteHooks,
} from "./testing/shared-simulator.js"
export {
  TEST_ASSETS,
  TEST_CHAINS,
  custodyArbitraries,
  findTestAsset,
  type CustodyArbitraries,
  type FastCheckApi,
  type MiningSettings,
  type TestAsset,
} from "./testing/arbitraries.js"
export { RevertNotSupported, SnapshotNotFound, type SnapshotInfo } from "./snapshots/snapshots.js"
export { CustodyClient, verifyWebhookSignature, type Credentials } from "./client/index.js"
export { formatAmount, parseAmount } from "./domain/shared/money.js"
