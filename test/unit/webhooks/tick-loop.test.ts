// The worker's loop: a step per tick while busy, idle once a step rests, nothing after stop.
import { describe, expect, it } from "vitest"
import { TickLoop } from "../../../src/webhooks/tick-loop.js"

const turn = () => new Promise((resolve) => setTimeout(resolve, 20))

describe("TickLoop", () => {
  it("runs one step when woken, rests, and runs again only when woken again", async () => {
    let steps = 0
    let rests = 0
    const loop = new TickLoop(
      async () => (steps++, "rested"),
      1,
      () => rests++,
    )
    expect(loop.idle).toBe(true)
    loop.wake()
    loop.wake()
    expect(loop.idle).toBe(false)
    await turn()
    expect({ steps, rests, idle: loop.idle }).toEqual({ steps: 1, rests: 1, idle: true })
    loop.wake()
    await turn()
    expect({ steps, rests }).toEqual({ steps: 2, rests: 2 })
  })

  it("runs step after step while a step says busy, one at a time, and rests once one does not", async () => {
    let steps = 0
    let running = 0
    let overlapped = false
    const loop = new TickLoop(
      async () => {
        overlapped ||= running > 0
        running++
        await new Promise((resolve) => setImmediate(resolve))
        running--
        return ++steps < 4 ? "busy" : "rested"
      },
      1,
      () => {},
    )
    loop.wake()
    for (let i = 0; i < 50 && !(steps === 4 && loop.idle); i++) await turn()
    expect({ steps, overlapped, idle: loop.idle }).toEqual({ steps: 4, overlapped: false, idle: true })
  })

  it("starts no step after stop, and stop waits for the step running", async () => {
    let release: () => void = () => {}
    let steps = 0
    let finished = false
    const loop = new TickLoop(
      async () => {
        steps++
        await new Promise<void>((resolve) => (release = resolve))
        finished = true
        return "busy"
      },
      1,
      () => {},
    )
    loop.wake()
    await turn()
    const stopping = loop.stop()
    expect(loop.stopped).toBe(true)
    let stopped = false
    void stopping.then(() => (stopped = true))
    await turn()
    expect(stopped).toBe(false)
    release()
    await stopping
    expect({ finished, steps }).toEqual({ finished: true, steps: 1 })
    loop.wake()
    await turn()
    expect(steps).toBe(1)
  })

  it("a wake already scheduled when stop comes runs no step", async () => {
    let steps = 0
    const loop = new TickLoop(
      async () => (steps++, "rested"),
      1,
      () => {},
    )
    loop.wake()
    await loop.stop()
    await turn()
    expect(steps).toBe(0)
  })
})
