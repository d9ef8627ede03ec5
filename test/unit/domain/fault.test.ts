// Fault registry decider: an id is added once and removed at most once, a clear removes every fault in force, and a
// hit is recorded only on a fault in force whose `times` is not used up; the schedule is a pure function of the call.
import { describe, expect, it } from "vitest"
import { draw, faultDecider, firesOn, type FaultDefinition, type FaultEvent, type FaultSchedule } from "../../../src/domain/fault/index.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(faultDecider)
const now = simInstant(1_000)
const never: FaultSchedule = { times: null, every: null, probability: null, seed: null }
const fault = (faultId: string, schedule: Partial<FaultSchedule> = {}): FaultDefinition => ({
  ...never,
  ...schedule,
  faultId,
  target: "api",
  match: { method: "GET", path: "/vaults" },
  effect: { kind: "status", status: 503 },
})
const added = (f: FaultDefinition): FaultEvent => ({ type: "FaultAdded", data: { ...f, at: now } })
const hit = (faultId: string, call: number): FaultEvent => ({
  type: "FaultHit",
  data: { faultId, call, requestId: `r${call}`, deliveryId: null, at: now },
})
const recordHit = (faultId: string, call: number) =>
  ({ type: "RecordFaultHit", faultId, call, requestId: `r${call}`, deliveryId: null, now }) as const

describe("fault decider", () => {
  describe("AddFault", () => {
    it("adds a new fault", () => {
      spec
        .given([])
        .when({ type: "AddFault", fault: fault("f1"), now })
        .then([added(fault("f1"))])
    })
    it("refuses an id in force", () => {
      spec
        .given([added(fault("f1"))])
        .when({ type: "AddFault", fault: fault("f1"), now })
        .thenFails({ _tag: "FaultAlreadyExists" })
    })
  })
  describe("RemoveFault", () => {
    it("removes a fault in force", () => {
      spec
        .given([added(fault("f1"))])
        .when({ type: "RemoveFault", faultId: "f1", now })
        .then([{ type: "FaultRemoved", data: { faultId: "f1", at: now } }])
    })
    it("refuses a fault not in force (never added, or removed)", () => {
      spec.given([]).when({ type: "RemoveFault", faultId: "f1", now }).thenFails({ _tag: "FaultNotFound", faultId: "f1" })
      spec
        .given([added(fault("f1")), { type: "FaultRemoved", data: { faultId: "f1", at: now } }])
        .when({ type: "RemoveFault", faultId: "f1", now })
        .thenFails({ _tag: "FaultNotFound" })
    })
  })
  describe("ClearFaults", () => {
    it("removes every fault in force at once", () => {
      spec
        .given([added(fault("f1")), added(fault("f2"))])
        .when({ type: "ClearFaults", now })
        .then([{ type: "FaultsCleared", data: { faultIds: ["f1", "f2"], at: now } }])
    })
    it("writes nothing when none is in force", () => {
      spec.given([]).when({ type: "ClearFaults", now }).then([])
    })
    it("leaves no fault to remove or hit", () => {
      const cleared: FaultEvent = { type: "FaultsCleared", data: { faultIds: ["f1"], at: now } }
      spec
        .given([added(fault("f1")), cleared])
        .when(recordHit("f1", 1))
        .thenFails({ _tag: "FaultNotFound" })
    })
  })
  describe("RecordFaultHit", () => {
    it("records a hit on a fault in force", () => {
      spec
        .given([added(fault("f1"))])
        .when(recordHit("f1", 1))
        .then([hit("f1", 1)])
    })
    it("refuses a hit past `times`", () => {
      spec
        .given([added(fault("f1", { times: 2 })), hit("f1", 1), hit("f1", 2)])
        .when(recordHit("f1", 3))
        .thenFails({ _tag: "FaultExhausted", faultId: "f1" })
    })
    it("refuses a hit on a removed fault", () => {
      spec
        .given([added(fault("f1")), { type: "FaultRemoved", data: { faultId: "f1", at: now } }])
        .when(recordHit("f1", 1))
        .thenFails({ _tag: "FaultNotFound" })
    })
  })
})

describe("a fault's schedule", () => {
  const calls = (s: Partial<FaultSchedule>, n = 20) => {
    const fired: Array<number> = []
    for (let call = 1; call <= n; call++) if (firesOn({ ...never, ...s }, call, fired.length)) fired.push(call)
    return fired
  }
  it("with none of times, every, probability: fires on every matching call", () => {
    expect(calls({}, 5)).toEqual([1, 2, 3, 4, 5])
  })
  it("times: fires on the next N matching calls", () => {
    expect(calls({ times: 3 })).toEqual([1, 2, 3])
  })
  it("every: fires on every k-th matching call", () => {
    expect(calls({ every: 3 }, 10)).toEqual([3, 6, 9])
  })
  it("every with times: the first N of the k-th calls", () => {
    expect(calls({ every: 2, times: 2 }, 10)).toEqual([2, 4])
  })
  it("probability: the same seed gives the same calls, another seed others, about the probability's share", () => {
    const a = calls({ probability: 0.3, seed: "a" }, 1000)
    expect(calls({ probability: 0.3, seed: "a" }, 1000)).toEqual(a)
    expect(calls({ probability: 0.3, seed: "b" }, 1000)).not.toEqual(a)
    expect(a.length).toBeGreaterThan(200)
    expect(a.length).toBeLessThan(400)
  })
  it("probability 0 never fires, 1 always", () => {
    expect(calls({ probability: 0, seed: "s" })).toEqual([])
    expect(calls({ probability: 1, seed: "s" }, 4)).toEqual([1, 2, 3, 4])
  })
  it("draws in [0, 1) from the seed and the call", () => {
    expect(draw("s", 1)).toBe(draw("s", 1))
    expect(draw("s", 1)).not.toBe(draw("s", 2))
    for (let i = 1; i < 100; i++) expect(draw("x", i)).toBeGreaterThanOrEqual(0)
  })
})
