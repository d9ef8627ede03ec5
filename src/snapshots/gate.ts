// Serializes world-replacing work (snapshot, revert, reset) with requests: a revert waits for the requests in
// flight to finish and holds new ones back until it is done, so no command is half applied across it.
export interface Gate {
  /**
   * Runs one request; while an exclusive task waits or runs, it starts only after that task. A task that answers
   * at once, with no exclusive task about, is answered at once too (signed reads answer without a promise).
   */
  readonly shared: <A>(task: () => A | Promise<A>) => A | Promise<A>
  /** Runs `task` alone: after every shared task in flight, before every one that arrives meanwhile. */
  readonly exclusive: <A>(task: () => Promise<A>) => Promise<A>
}

export const makeGate = (): Gate => {
  let active = 0
  // Exclusive tasks in arrival order; while any is queued, shared tasks wait in `held`.
  const exclusives: Array<() => void> = []
  let held: Array<() => void> = []
  let exclusiveRunning = false

  const pump = () => {
    if (exclusiveRunning || active > 0) return
    const next = exclusives.shift()
    if (next !== undefined) {
      exclusiveRunning = true
      next()
      return
    }
    // Counted here, not when they resume: an exclusive task queued before they do must still wait for them.
    const waiting = held
    held = []
    active += waiting.length
    for (const go of waiting) go()
  }

  const leave = () => {
    if (--active === 0 && exclusives.length > 0) pump()
  }

  // No async function on this path: every request passes here.
  const after = <A>(task: () => A | Promise<A>): A | Promise<A> => {
    let result: A | Promise<A>
    try {
      result = task()
    } catch (e) {
      leave()
      throw e
    }
    if (!(result instanceof Promise)) {
      leave()
      return result
    }
    return result.then(
      (value) => {
        leave()
        return value
      },
      (e: unknown) => {
        leave()
        throw e
      },
    )
  }

  const shared = <A>(task: () => A | Promise<A>): A | Promise<A> => {
    if (exclusiveRunning || exclusives.length > 0) return new Promise<void>((resolve) => held.push(resolve)).then(() => after(task))
    active++
    return after(task)
  }

  const exclusive = async <A>(task: () => Promise<A>): Promise<A> => {
    await new Promise<void>((resolve) => {
      exclusives.push(resolve)
      pump()
    })
    try {
      return await task()
    } finally {
      exclusiveRunning = false
      pump()
    }
  }

  return { shared, exclusive }
}
