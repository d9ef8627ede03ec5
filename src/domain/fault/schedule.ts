// Whether a fault fires on a matching call: its `every`, its `probability` (drawn from its seed and the call's
// number, so the same seed gives the same hits over the same calls) and its `times`.
import { sha256 } from "@noble/hashes/sha2.js"
import { utf8ToBytes } from "@noble/hashes/utils.js"
import type { FaultSchedule } from "./events.js"

/** A number in [0, 1) from the seed and the call's number: 48 bits of SHA-256. */
export const draw = (seed: string, call: number): number => {
  const h = sha256(utf8ToBytes(`custody-sim fault:${seed}:${call}`))
  let n = 0
  for (let i = 0; i < 6; i++) n = n * 256 + h[i]!
  return n / 2 ** 48
}

/** `call` is 1-based over the fault's matching calls; `hits` the hits recorded before it. */
export const firesOn = (s: FaultSchedule, call: number, hits: number): boolean =>
  (s.times === null || hits < s.times) &&
  (s.every === null || call % s.every === 0) &&
  (s.probability === null || draw(s.seed ?? "", call) < s.probability)

/** Whether the fault can fire again. */
export const exhausted = (s: FaultSchedule, hits: number): boolean => s.times !== null && hits >= s.times
