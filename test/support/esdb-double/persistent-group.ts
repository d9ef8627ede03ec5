// One persistent subscription group, as EventStoreDB runs it: competing consumers with in-flight windows, a retry
// buffer served before new events, message timeouts, parking after maxRetryCount, and a checkpoint of the acknowledged
// prefix. A restarted server resumes from the checkpoint; whatever was in flight or waiting for a retry comes again.
import type { EsdbDoubleState, StoredEvent } from "./state.js"

export type ConsumerStrategy = "RoundRobin" | "DispatchToSingle" | "Pinned"

export interface GroupSettings {
  readonly resolveLinks: boolean
  readonly messageTimeoutMs: number
  readonly maxRetryCount: number
  /** 0: unbounded. */
  readonly maxSubscriberCount: number
  readonly strategy: ConsumerStrategy
  readonly checkPointAfterMs: number
  readonly minCheckPointCount: number
  readonly maxCheckPointCount: number
  readonly historyBufferSize: number
}

/** What the group reads: $all (with the filter it was created with) or one stream, from a start (inclusive). */
export type GroupSource =
  | { readonly _tag: "All"; readonly from: "start" | "end" | bigint; readonly filter: ((e: StoredEvent) => boolean) | undefined }
  | { readonly _tag: "Stream"; readonly stream: string; readonly from: "start" | "end" | bigint }

export interface Message {
  readonly event: StoredEvent
  readonly retryCount: number
  /** Order of the event in the group's source: the checkpoint is the end of the acknowledged prefix. */
  readonly seq: number
}

export interface Consumer {
  readonly id: string
  readonly connectionName: string
  readonly capacity: number
  readonly inFlight: Set<string>
  readonly push: (m: Message) => void
  readonly drop: (exception: string, reason: string) => void
}

type PushResult = "Sent" | "Skipped" | "NoMoreCapacity"

const hash = (text: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

export class PersistentGroup {
  readonly consumers: Array<Consumer> = []
  readonly #outstanding = new Map<string, { message: Message; consumer: Consumer; expires: number }>()
  #retry: Array<Message> = []
  #buffer: Array<Message> = []
  /** Index of the next source event to read into the buffer. */
  #cursor = 0
  #nextSeq = 0
  /** Finished (acked, skipped, parked) sequence numbers beyond the checkpoint. */
  readonly #finished = new Set<number>()
  /** The event of every sequence number not yet behind the checkpoint. */
  readonly #bySeq = new Map<number, StoredEvent>()
  #checkpointSeq = -1
  #checkpointed: StoredEvent | undefined
  #checkpointedAt = 0
  #sinceCheckpoint = 0
  #roundRobin = 0
  parked = 0
  totalItems = 0
  /** Messages given again (nacked, timed out, or held by a consumer that went away). */
  retried = 0

  constructor(
    readonly state: EsdbDoubleState,
    readonly name: string,
    readonly source: GroupSource,
    readonly settings: GroupSettings,
    /** Where the source stood when the group was created: "end" starts after it. */
    readonly createdAt: { readonly logLength: number; readonly streamLength: number },
  ) {
    this.#cursor = this.#startIndex()
  }

  get sourceName(): string {
    return this.source._tag === "All" ? "$all" : this.source.stream
  }
  get checkpointStream(): string {
    return `$persistentsubscription-${this.sourceName}::${this.name}-checkpoint`
  }
  get parkedStream(): string {
    return `$persistentsubscription-${this.sourceName}::${this.name}-parked`
  }
  get outstandingCount(): number {
    return this.#outstanding.size
  }
  get retryCount(): number {
    return this.#retry.length
  }
  get lastCheckpointed(): StoredEvent | undefined {
    return this.#checkpointed
  }

  #events(): ReadonlyArray<StoredEvent> {
    return this.source._tag === "All" ? this.state.log : (this.state.stream(this.source.stream) ?? [])
  }

  #startIndex(): number {
    const s = this.source
    if (s.from === "start") return 0
    if (s.from === "end") return s._tag === "All" ? this.createdAt.logLength : this.createdAt.streamLength
    if (s._tag === "Stream") return Number(s.from)
    return this.state.indexAtOrAfter(s.from)
  }

  #matches(e: StoredEvent): boolean {
    return this.source._tag === "Stream" || this.source.filter === undefined || this.source.filter(e)
  }

  /** Reads new source events into the buffer (up to the history buffer's size); skipped events count as finished. */
  #fill(): void {
    const events = this.#events()
    while (this.#buffer.length < this.settings.historyBufferSize && this.#cursor < events.length) {
      const e = events[this.#cursor++]!
      if (!this.#matches(e)) continue
      this.#bySeq.set(this.#nextSeq, e)
      this.#buffer.push({ event: e, retryCount: 0, seq: this.#nextSeq++ })
    }
  }

  addConsumer(c: Consumer): "ok" | "full" {
    if (this.settings.maxSubscriberCount !== 0 && this.consumers.length >= this.settings.maxSubscriberCount) return "full"
    this.consumers.push(c)
    this.pump()
    return "ok"
  }

  /** A consumer gone (cancelled, disconnected): what it held is retried, in event order. */
  removeConsumer(c: Consumer): void {
    const at = this.consumers.indexOf(c)
    if (at < 0) return
    this.consumers.splice(at, 1)
    const lost = [...this.#outstanding.values()]
      .filter((o) => o.consumer === c)
      .map((o) => o.message)
      .sort((a, b) => a.seq - b.seq)
    for (const m of lost) this.#retryMessage(m)
    this.pump()
  }

  /** Sends what it can: the retry buffer first, then new events, each to a consumer with a free slot. */
  pump(): void {
    // Parking and checkpoints append to the log, whose listeners pump again: one pass at a time, repeated.
    if (this.#pumping) return void (this.#again = true)
    this.#pumping = true
    try {
      do {
        this.#again = false
        this.#pumpOnce()
      } while (this.#again)
    } finally {
      this.#pumping = false
    }
  }

  #pumping = false
  #again = false

  #pumpOnce(): void {
    this.#fill()
    for (const queue of [this.#retry, this.#buffer]) {
      for (let i = 0; i < queue.length; ) {
        const result = this.#pushToConsumer(queue[i]!)
        if (result === "NoMoreCapacity") return
        if (result === "Sent") queue.splice(i, 1)
        else i++
      }
      if (queue === this.#buffer && this.#buffer.length === 0) {
        this.#fill()
        if (this.#buffer.length > 0) return void (this.#again = true)
      }
    }
  }

  #pushToConsumer(m: Message): PushResult {
    const n = this.consumers.length
    if (n === 0) return "NoMoreCapacity"
    const free = (c: Consumer) => c.inFlight.size < c.capacity
    let chosen: Consumer | undefined
    switch (this.settings.strategy) {
      case "DispatchToSingle":
        chosen = this.consumers.find(free)
        break
      case "Pinned": {
        if (!this.consumers.some(free)) return "NoMoreCapacity"
        const pinned = this.consumers[hash(m.event.stream) % n]!
        if (!free(pinned)) return "Skipped"
        chosen = pinned
        break
      }
      default:
        for (let k = 0; k < n && chosen === undefined; k++) {
          const c = this.consumers[(this.#roundRobin + k) % n]!
          if (free(c)) {
            chosen = c
            this.#roundRobin = (this.#roundRobin + k + 1) % n
          }
        }
    }
    if (chosen === undefined) return "NoMoreCapacity"
    chosen.inFlight.add(m.event.id)
    this.#outstanding.set(m.event.id, { message: m, consumer: chosen, expires: Date.now() + this.settings.messageTimeoutMs })
    this.totalItems++
    chosen.push(m)
    return "Sent"
  }

  #release(id: string): Message | undefined {
    const o = this.#outstanding.get(id)
    if (o === undefined) return undefined
    this.#outstanding.delete(id)
    // Whoever holds it now loses it, as the server's RemoveProcessingMessages does for every client.
    for (const c of this.consumers) c.inFlight.delete(id)
    return o.message
  }

  #finish(m: Message): void {
    this.#finished.add(m.seq)
    this.#sinceCheckpoint++
    while (this.#finished.delete(this.#checkpointSeq + 1)) {
      this.#checkpointSeq++
      this.#checkpointed = this.#bySeq.get(this.#checkpointSeq) ?? this.#checkpointed
      this.#bySeq.delete(this.#checkpointSeq)
    }
    if (this.#sinceCheckpoint >= this.settings.maxCheckPointCount) this.#writeCheckpoint()
  }

  ack(ids: ReadonlyArray<string>): void {
    for (const id of ids) {
      const m = this.#release(id)
      if (m !== undefined) this.#finish(m)
    }
    this.pump()
  }

  /** The reason is only logged by the server. */
  nack(ids: ReadonlyArray<string>, action: "unknown" | "park" | "retry" | "skip" | "stop"): void {
    for (const id of ids) {
      // Stop is accepted and does nothing: EventStoreDB leaves the message in flight until it times out.
      if (action === "stop") continue
      const m = this.#release(id)
      if (m === undefined) continue
      if (action === "park") this.#park(m)
      else if (action === "skip") this.#finish(m)
      else this.#retryMessage(m)
    }
    this.pump()
  }

  #retryMessage(m: Message): void {
    this.#release(m.event.id)
    if (m.retryCount >= this.settings.maxRetryCount) return this.#park(m)
    this.retried++
    this.#retry.push({ ...m, retryCount: m.retryCount + 1 })
  }

  #park(m: Message): void {
    this.state.writeSystemEvent(
      this.parkedStream,
      "$>",
      new TextEncoder().encode(`${m.event.revision}@${m.event.stream}`),
      "application/octet-stream",
    )
    this.parked++
    this.#finish(m)
  }

  #writeCheckpoint(): void {
    const e = this.#checkpointed
    if (e === undefined) return
    this.#sinceCheckpoint = 0
    this.#checkpointedAt = Date.now()
    const position = this.source._tag === "All" ? `C:${e.position}/P:${e.position}` : e.revision.toString()
    this.state.writeSystemEvent(this.checkpointStream, "$SubscriptionCheckpoint", position)
  }

  /** The server's clock tick: timed-out messages are retried (or parked), and a due checkpoint is written. */
  tick(now = Date.now()): void {
    const expired = [...this.#outstanding.values()]
      .filter((o) => o.expires <= now)
      .map((o) => o.message)
      .sort((a, b) => a.seq - b.seq)
    for (const m of expired) this.#retryMessage(m)
    if (this.#sinceCheckpoint >= this.settings.minCheckPointCount && now - this.#checkpointedAt >= this.settings.checkPointAfterMs)
      this.#writeCheckpoint()
    this.pump()
  }

  /** A server restart: consumers are gone, and the group reads again from just after its last checkpoint. */
  restart(): void {
    this.consumers.length = 0
    this.#outstanding.clear()
    this.#retry = []
    this.#buffer = []
    this.#finished.clear()
    this.#bySeq.clear()
    this.#checkpointSeq = -1
    this.#nextSeq = 0
    this.#sinceCheckpoint = 0
    const written = this.state.stream(this.checkpointStream)
    const last = written?.[written.length - 1]
    if (last === undefined) {
      this.#cursor = this.#startIndex()
      return
    }
    const text = JSON.parse(new TextDecoder().decode(last.data)) as string
    if (this.source._tag === "Stream") {
      this.#cursor = Number(text) + 1
    } else {
      const position = BigInt(/^C:(\d+)/.exec(text)![1]!)
      this.#cursor = this.state.indexAtOrAfter(position) + 1
    }
  }
}
