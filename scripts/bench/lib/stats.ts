// Small statistics helpers for interleaved measurements.
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

export const median = (xs: ReadonlyArray<number>): number => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

export const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!
}

/** Spread of a sample: (max - min) / median, to show how noisy a figure was. */
export const spread = (xs: ReadonlyArray<number>): number => {
  const m = median(xs)
  return xs.length === 0 || m === 0 ? Number.NaN : (Math.max(...xs) - Math.min(...xs)) / m
}

// A full GC between rounds, so one side's garbage is not collected on the other side's clock.
setFlagsFromString("--expose-gc")
const gcFn = runInNewContext("gc") as (() => void) | undefined
export const fullGc = (): void => gcFn?.()

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

/** Formats a figure with 3 significant digits and thousands separators. */
export const fmt = (x: number | undefined): string => {
  if (x === undefined || !Number.isFinite(x)) return "-"
  const abs = Math.abs(x)
  if (abs >= 1000) return Math.round(x).toLocaleString("en-US")
  if (abs >= 100) return x.toFixed(0)
  if (abs >= 10) return x.toFixed(1)
  return x.toFixed(2)
}
