// Pacing of attempts on wall time: a token bucket (when an attempt is due is the simulated clock's business).
export class Pacer {
  private tokens: number
  private refilledAt = performance.now()

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst
  }

  /** Tops the bucket up for the wall time passed since the last refill. */
  refill(): void {
    const t = performance.now()
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.refilledAt) * this.perSecond) / 1000)
    this.refilledAt = t
  }

  /** Takes a token if there is one. */
  take(): boolean {
    if (this.tokens < 1) return false
    this.tokens--
    return true
  }
}
