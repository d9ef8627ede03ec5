// The worker's loop as a small state machine. While there is work it runs in ticks (one step per tick, each
// after the last has finished), so its cost per delivery stays low and it never monopolises the event loop;
// with nothing to do it rests until woken.
//
//   idle ──wake──▶ scheduled ──(next turn)──▶ running ──step says busy──▶ scheduled (again after tickMs)
//     ▲                                          │
//     └──────────────step says rested────────────┘        any state ──stop──▶ stopped (no step starts again)
export type LoopState = "idle" | "scheduled" | "running" | "stopped"

export class TickLoop {
  private state: LoopState = "idle"
  private current: Promise<void> | undefined

  /**
   * @param step one tick's work: "busy" to run again after `tickMs`, "rested" to go idle.
   * @param rested told each time the loop goes idle.
   */
  constructor(
    private readonly step: () => Promise<"busy" | "rested">,
    private readonly tickMs: number,
    private readonly rested: () => void,
  ) {}

  get idle(): boolean {
    return this.state === "idle"
  }

  get stopped(): boolean {
    return this.state === "stopped"
  }

  /** Runs a step at the next turn, unless one is scheduled or running already. */
  wake(): void {
    if (this.state !== "idle") return
    this.state = "scheduled"
    setImmediate(this.run)
  }

  /** No step starts any more; resolves once the step running now (if any) has finished. */
  stop(): Promise<void> {
    this.state = "stopped"
    return this.current ?? Promise.resolve()
  }

  private readonly run = (): void => {
    if (this.state !== "scheduled") return
    this.current = this.tick()
  }

  private async tick(): Promise<void> {
    this.state = "running"
    const next = await this.step()
    if (this.stopped) return
    if (next === "busy") {
      this.state = "scheduled"
      setTimeout(this.run, this.tickMs)
      return
    }
    this.state = "idle"
    this.rested()
  }
}
