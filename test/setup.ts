// Global fast-check settings: a fixed seed in CI, more runs on demand (FC_NUM_RUNS).
import fc from "fast-check"
import { installContractCheck } from "./support/contract.js"

const numRuns = Number(process.env.FC_NUM_RUNS ?? (process.env.CI ? 100 : 50))
const seed = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : process.env.CI ? 20261122 : undefined
fc.configureGlobal({ numRuns, ...(seed !== undefined ? { seed } : {}) })

// Every answer given while a test file runs is held to its version's OpenAPI document.
installContractCheck()
