// The EventStoreDB double's transaction log: streams, sparse $all positions, ESDB's expected-version and idempotency rules.
import type { PersistentGroup } from "./persistent-group.js"

export interface ProposedEvent {
  readonly id: string
  readonly type: string
  readonly contentType: string
  readonly data: Uint8Array
  readonly metadata: Uint8Array
}

export interface StoredEvent extends ProposedEvent {
  readonly stream: string
  readonly revision: bigint
  /** Log position of the record: commit and prepare positions are equal, as for every gRPC write since v20. */
  readonly position: bigint
  /** .NET ticks since the Unix epoch, as the server sends `created`. */
  readonly created: bigint
}

export type ExpectedState = "any" | "no_stream" | "stream_exists" | bigint

export type AppendOutcome =
  | { readonly _tag: "Written" | "Idempotent"; readonly revision: bigint | "no_stream"; readonly position: bigint | undefined }
  | { readonly _tag: "WrongExpectedVersion"; readonly current: bigint | "no_stream" }

export interface EsdbDoubleStateOptions {
  /** Seeds the record lengths (hence the positions) and nothing else. */
  readonly seed?: number
  /** A system event (`$>` link, `$statsCollected`, `$metadata`) follows every n-th user append; 0 disables. */
  readonly systemEventEvery?: number
}

const encoder = new TextEncoder()
const json = (value: unknown) => encoder.encode(JSON.stringify(value))

/** Kept outside the server so a test can stop the double and start it again on the same data. */
export class EsdbDoubleState {
  readonly #log: StoredEvent[] = []
  readonly #streams = new Map<string, StoredEvent[]>()
  readonly #ids = new Map<string, Map<string, StoredEvent>>()
  readonly #listeners = new Set<() => void>()
  readonly #systemEventEvery: number
  #end = 0n
  #random: () => number
  #userAppends = 0
  /** Persistent subscription groups by `<source>::<group>` (the service in persistent.ts runs them). */
  readonly persistentGroups = new Map<string, PersistentGroup>()

  constructor(options: EsdbDoubleStateOptions = {}) {
    this.#random = mulberry32(options.seed ?? 20_260_101)
    this.#systemEventEvery = options.systemEventEvery ?? 3
    this.writeSystemEvent("$epochs", "$epoch-information", {
      epochNumber: 0,
      epochPosition: 0,
      leaderInstanceId: "00000000-0000-0000-0000-000000000001",
    })
    this.writeSystemEvent("$$$scavenges", "$metadata", { $maxAge: 2_592_000 })
    this.writeSystemEvent("$projections-$all", "$ProjectionsInitialized", {})
  }

  get log(): ReadonlyArray<StoredEvent> {
    return this.#log
  }
  /** Where the next record will be written: a valid position to read or subscribe from. */
  get endPosition(): bigint {
    return this.#end
  }
  stream(name: string): ReadonlyArray<StoredEvent> | undefined {
    return this.#streams.get(name)
  }

  /** Index of the first record at or after `position` in the log. */
  indexAtOrAfter(position: bigint): number {
    let lo = 0
    let hi = this.#log.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#log[mid]!.position < position) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** ESDB refuses positions inside a record: only record starts, 0 and the end of the log are valid. */
  isValidPosition(position: bigint): boolean {
    if (position === 0n || position === this.#end) return true
    return this.#log[this.indexAtOrAfter(position)]?.position === position
  }

  onAppend(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  append(stream: string, expected: ExpectedState, events: ReadonlyArray<ProposedEvent>): AppendOutcome {
    const existing = this.#streams.get(stream)
    const current: bigint | "no_stream" = existing === undefined ? "no_stream" : BigInt(existing.length - 1)
    const check = this.#check(stream, existing, current, expected, events)
    if (check !== undefined) return check
    if (events.length === 0) return { _tag: "Written", revision: current, position: undefined }
    const written = events.map((e) => this.#write(stream, e))
    this.#userAppends += 1
    if (this.#systemEventEvery > 0 && this.#userAppends % this.#systemEventEvery === 0) this.#systemNoise(written[0]!)
    this.#notify()
    const last = written[written.length - 1]!
    return { _tag: "Written", revision: last.revision, position: last.position }
  }

  /** Test hook: writes what ESDB itself or its projections would (no expected version, no idempotency). */
  writeSystemEvent(stream: string, type: string, data: unknown, contentType = "application/json"): StoredEvent {
    const bytes = data instanceof Uint8Array ? data : json(data)
    const event = this.#write(stream, { id: crypto.randomUUID(), type, contentType, data: bytes, metadata: new Uint8Array() })
    this.#notify()
    return event
  }

  // Mirrors ESDB's commit check: a repeat of already-written ids succeeds without writing (Idempotent), a
  // partial repeat is "corrupted idempotency", which the server reports as a wrong expected version.
  #check(
    stream: string,
    existing: ReadonlyArray<StoredEvent> | undefined,
    current: bigint | "no_stream",
    expected: ExpectedState,
    events: ReadonlyArray<ProposedEvent>,
  ): AppendOutcome | undefined {
    const wrong = { _tag: "WrongExpectedVersion", current } as const
    if (expected === "stream_exists" && existing === undefined) return wrong
    if (expected === "any" || expected === "stream_exists") {
      const ids = this.#ids.get(stream)
      const found = events.map((e) => ids?.get(e.id))
      if (found.length === 0 || found[0] === undefined) return undefined
      if (found.some((f) => f === undefined)) return wrong
      return this.#idempotent(found[found.length - 1]!)
    }
    const expectedRevision = expected === "no_stream" ? -1n : expected
    const currentRevision = current === "no_stream" ? -1n : current
    if (expectedRevision === currentRevision) return undefined
    if (expectedRevision > currentRevision || existing === undefined) return wrong
    let last: StoredEvent | undefined
    for (const [i, e] of events.entries()) {
      const there = existing[Number(expectedRevision) + 1 + i]
      if (there === undefined || there.id !== e.id) return wrong
      last = there
    }
    return last === undefined ? wrong : this.#idempotent(last)
  }

  #idempotent(last: StoredEvent): AppendOutcome {
    return { _tag: "Idempotent", revision: last.revision, position: last.position }
  }

  #write(stream: string, e: ProposedEvent): StoredEvent {
    let events = this.#streams.get(stream)
    if (events === undefined) {
      events = []
      this.#streams.set(stream, events)
    }
    const stored: StoredEvent = {
      ...e,
      stream,
      revision: BigInt(events.length),
      position: this.#end,
      created: BigInt(Date.now()) * 10_000n,
    }
    // A record's length is its header plus payload; the jitter keeps positions from being guessable.
    const length = 96 + stream.length + e.type.length + e.data.length + e.metadata.length + Math.floor(this.#random() * 128)
    this.#end += BigInt(length)
    events.push(stored)
    this.#log.push(stored)
    let ids = this.#ids.get(stream)
    if (ids === undefined) {
      ids = new Map()
      this.#ids.set(stream, ids)
    }
    ids.set(e.id, stored)
    return stored
  }

  // What a running node adds to $all between user writes: $by_category links, stats, stream metadata.
  #systemNoise(first: StoredEvent): void {
    const category = first.stream.split("-")[0] ?? first.stream
    switch ((this.#userAppends / this.#systemEventEvery) % 3) {
      case 0:
        this.writeSystemEvent("$stats-127.0.0.1:2113", "$statsCollected", { "proc-mem": 123_456_789 })
        break
      case 1:
        this.writeSystemEvent(`$ce-${category}`, "$>", encoder.encode(`${first.revision}@${first.stream}`), "application/octet-stream")
        break
      default:
        this.writeSystemEvent(`$$${first.stream}`, "$metadata", { $tb: 0 })
    }
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener()
  }
}

export const createEsdbDoubleState = (options?: EsdbDoubleStateOptions) => new EsdbDoubleState(options)

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
