// One simulator for a whole test file, each test starting from the same world: a snapshot before each test and a
// revert after it (Anvil's evm_snapshot / evm_revert in beforeEach / afterEach). Takes the test runner's hooks,
// so it works with vitest, jest or mocha alike and the package depends on none of them.
import { startInProcess, type InProcess, type InProcessOptions } from "./in-process.js"

type Hook = (fn: () => Promise<void>) => void

export interface SuiteHooks {
  readonly beforeAll: Hook
  readonly beforeEach: Hook
  readonly afterEach: Hook
  readonly afterAll: Hook
}

export interface SharedSimulatorOptions extends InProcessOptions {
  /** Builds the world every test starts from (accounts, balances, subscriptions), once, after start. */
  readonly setup?: (sim: InProcess) => Promise<void>
}

export interface SharedSimulator {
  /** The simulator (available from the first hook on). */
  readonly current: InProcess
}

/** Snapshots `sim` before each test and reverts to the snapshot after it. */
export const isolateEachTest = (sim: () => InProcess, hooks: Pick<SuiteHooks, "beforeEach" | "afterEach">): void => {
  let taken: string | undefined
  hooks.beforeEach(async () => {
    taken = (await sim().snapshot()).id
  })
  hooks.afterEach(async () => {
    if (taken !== undefined) await sim().revert(taken)
    taken = undefined
  })
}

/** Starts one in-process simulator for the suite (closed after it) and isolates each test with isolateEachTest. */
export const sharedSimulator = (hooks: SuiteHooks, options: SharedSimulatorOptions = {}): SharedSimulator => {
  let sim: InProcess | undefined
  const current = () => {
    if (sim === undefined) throw new Error("the shared simulator starts in beforeAll: use it inside a hook or a test")
    return sim
  }
  hooks.beforeAll(async () => {
    const { setup, ...rest } = options
    sim = await startInProcess(rest)
    await setup?.(sim)
  })
  isolateEachTest(current, hooks)
  hooks.afterAll(async () => {
    await sim?.close()
    sim = undefined
  })
  return {
    get current() {
      return current()
    },
  }
}
