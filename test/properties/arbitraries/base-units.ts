// Base units (satoshi, wei, drops): positive bigints, the testing entry's arbitrary bound to this suite's fast-check.
import fc from "fast-check"
import { custodyArbitraries } from "../../../src/testing/arbitraries.js"

export const custody = custodyArbitraries(fc)

export const baseUnits = custody.baseUnits

/** Small amounts: counterexamples stay readable and sums cross the fee and reserve edges often. */
export const smallUnits = baseUnits(3_000_000n)
