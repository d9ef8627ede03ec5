// Simulated time: whole milliseconds since the UNIX epoch, read only from the SimClock service.
export type SimInstant = number & { readonly SimInstant: unique symbol }

export const simInstant = (ms: number): SimInstant => Math.trunc(ms) as SimInstant
export const toUnixSeconds = (t: SimInstant): number => Math.floor(t / 1000)
export const addSeconds = (t: SimInstant, seconds: number): SimInstant => simInstant(t + seconds * 1000)
