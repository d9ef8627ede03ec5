// The delivery worker: takes due deliveries from the outbox, POSTs them (bounded concurrency, asynchronous I/O
// beside the API) and records every attempt as an event. It decides nothing the log does not say: after a restart the
// outbox is rebuilt from the events and whatever is pending or due is delivered.
import { Effect, Exit } from "effect"
import { recordDeliveryEvents } from "../commands/webhooks.js"
import { DEFAULT_RETRY_SCHEDULE, decideAttempt, type HttpOutcome, type WebhookDeliveryEvent } from "../domain/webhook/index.js"
import { simInstant } from "../domain/shared/sim-time.js"
import type { DeliveryView, OutboxModel } from "../projections/outbox.js"
import type { CommandServices } from "../commands/services.js"
import type { StoreUnavailable } from "../store/event-store.js"
import { DueQueue } from "./due-queue.js"
import { makeHttpTransport, type Transport } from "./http.js"
import { makeThreadTransport } from "./thread-transport.js"
import { deliveryBody, notificationParts, type AssetIdToWire, type NotificationParts, type RequestLookup } from "./payload.js"
import { startSharedDispatch, type Grant } from "./shared-dispatch.js"
import type { ConsumerGroups } from "../store/event-store.js"
import { OLDEST_API_VERSION, type ApiVersion } from "../domain/api-key/versions.js"

export interface WebhookWorkerOptions {
  /**
   * Requests in flight at once per subscription (default 64: a slot is reused only at the next tick, every 10 ms).
   * Each subscription has its own queue and slots: a slow or hanging receiver holds only its own.
   */
  readonly concurrency?: number
  /** Wall-clock milliseconds before an attempt counts as a network error (default 5,000). */
  readonly timeoutMs?: number
  /** Seconds to wait after each failed attempt, for subscriptions without their own (default 10 s, 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h). */
  readonly retrySchedule?: ReadonlyArray<number>
  /** Attempts started per second of wall time at most (default 2,500): a backlog drains without starving the API. */
  readonly maxPerSecond?: number
  /**
   * Run the HTTP client on its own thread, off the API's event loop (`custody-sim serve` does). Default false: an
   * in-process simulator (tests, property runs) delivers little and would pay a thread's start-up for each.
   */
  readonly thread?: boolean
  readonly transport?: Transport
  /**
   * Several nodes on one store (EventStoreDB): attempt only the deliveries the store's consumer groups give this node,
   * so that each is attempted by one node (shared-dispatch.ts). Default: every due delivery is this node's.
   */
  readonly shared?: {
    readonly groups: ConsumerGroups
    /** How long a node may hold a delivery before the store gives it to another (default 30,000 ms). */
    readonly messageTimeoutMs?: number
  }
}

export interface WebhookWorkerHost {
  readonly outbox: OutboxModel
  /** The transaction requests' recipients, which request items list from 2025-09-23 on (payload.ts). */
  readonly requestOf?: RequestLookup
  /** The fixture's asset ids, which payloads show for the catalogue's (payload.ts); undefined: none set. */
  readonly assetIdToWire?: AssetIdToWire
  readonly clock: { readonly now: () => number; readonly isFrozen: () => boolean }
  readonly run: <A, E>(effect: Effect.Effect<A, E, CommandServices>) => Promise<Exit.Exit<A, E>>
  readonly awaitPosition: (position: bigint) => Effect.Effect<void, StoreUnavailable>
  /** The read models' position: a shared node waits for its live subscription before it pulls from the store. */
  readonly position?: () => bigint
  readonly logError?: (entry: Record<string, unknown>) => void
}

export interface WebhookWorker {
  /** Looks for due deliveries now (new notifications, the clock moved, a redelivery). */
  readonly wake: () => void
  /** Resolves once nothing is in flight or unrecorded and nothing is due at the current simulated time. */
  readonly idle: () => Promise<void>
  readonly stats: () => { readonly inFlight: number; readonly attempts: number; readonly delivered: number }
  readonly stop: () => Promise<void>
}

interface Lane {
  readonly queue: DueQueue
  inFlight: number
}

interface Finished {
  readonly delivery: DeliveryView
  /** Simulated time the attempt started. */
  readonly at: number
  readonly outcome: HttpOutcome
  /** Its number, fixed when it started: a second node's attempt of the same delivery records the same number. */
  readonly attempt: number
}

// While busy the worker runs in ticks: each records the attempts finished since the last one in one append
// batch and starts what is due, so its cost per delivery stays low and its work never monopolises the event loop.
const TICK_MS = 10

export const startWebhookWorker = (host: WebhookWorkerHost, options: WebhookWorkerOptions = {}): WebhookWorker => {
  const concurrency = options.concurrency ?? 64
  const timeoutMs = options.timeoutMs ?? 5_000
  const defaultSchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE
  const rate = options.maxPerSecond ?? 2_500
  const transport = options.transport ?? (options.thread === true ? makeThreadTransport : makeHttpTransport)({ maxSockets: concurrency })
  const { outbox, clock } = host
  // One lane per subscription: its due deliveries and its attempts in flight.
  const lanes = new Map<string, Lane>()
  const laneOf = (webhookId: string): Lane => {
    let lane = lanes.get(webhookId)
    if (lane === undefined) lanes.set(webhookId, (lane = { queue: new DueQueue(), inFlight: 0 }))
    return lane
  }
  const enqueue = (d: DeliveryView) => laneOf(d.webhookId).queue.push(d)
  // Attempted and not yet recorded: such a delivery is never attempted again meanwhile.
  const busy = new Set<string>()
  // Shared: the deliveries this node may attempt, each with the message that gave it (undefined: all are ours).
  const grants = options.shared === undefined ? undefined : new Map<string, Grant>()
  // Shared: a message that came while its delivery was busy here, kept until that attempt is recorded: it may be the
  // event of that very attempt, which makes the next one due.
  const afterRecord = new Map<string, Grant>()
  let requests = 0
  let finished: Array<Finished> = []
  // Pacing is a token bucket on wall time; when an attempt is due is the simulated clock's business.
  const burst = Math.max(1, (rate * 4 * TICK_MS) / 1000)
  let tokens = burst
  let refilledAt = performance.now()
  let state: "idle" | "scheduled" | "running" = "idle"
  let current: Promise<void> | undefined
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let idleWaiters: Array<() => void> = []
  const counts = { attempts: 0, delivered: 0 }
  // Several nodes: the store gives a node an event about when its live subscription brings it; wait for that a
  // while rather than pull (a read of the log for each message).
  const caughtUp = (position: bigint) =>
    host.position === undefined || options.shared === undefined
      ? host.awaitPosition(position)
      : Effect.gen(function* () {
          for (let waited = 0; host.position!() < position && waited < 1_000; waited += 5) yield* Effect.sleep(5)
          yield* host.awaitPosition(position)
        })
  const parts = new WeakMap<DeliveryView["notification"], Map<string, NotificationParts>>()
  /** A notification's body parts per payload version, serialised once each. */
  const partsOf = (n: DeliveryView["notification"], version: ApiVersion) => {
    let byVersion = parts.get(n)
    if (byVersion === undefined) parts.set(n, (byVersion = new Map()))
    let p = byVersion.get(version)
    if (p === undefined) byVersion.set(version, (p = notificationParts(n, version, host.requestOf, host.assetIdToWire)))
    return p
  }

  /** The lane's first live entry (stale ones dropped on the way). */
  const head = (lane: Lane) => {
    for (let top = lane.queue.peek(); top !== undefined; top = lane.queue.peek()) {
      const d = top.delivery
      if (d.status === "pending" && d.nextAttemptAt === top.at && !busy.has(d.deliveryId) && (grants === undefined || grants.has(d.deliveryId))) return top
      lane.queue.pop()
    }
    return undefined
  }
  /** When the next delivery of any lane is due (undefined: none queued); empty, idle lanes are dropped. */
  const nextDue = (): number | undefined => {
    let at: number | undefined
    for (const [id, lane] of lanes) {
      const top = head(lane)
      if (top === undefined) {
        if (lane.inFlight === 0) lanes.delete(id)
        continue
      }
      if (at === undefined || top.at < at) at = top.at
    }
    return at
  }
  const dueNow = () => {
    const at = nextDue()
    return at !== undefined && at <= clock.now()
  }
  const checkIdle = () => {
    if (idleWaiters.length === 0 || state !== "idle" || requests > 0 || finished.length > 0 || dueNow()) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const w of waiters) w()
  }

  const wake = () => {
    if (state !== "idle" || stopped) return
    state = "scheduled"
    setImmediate(() => (current = tick()))
  }

  const tick = async (): Promise<void> => {
    state = "running"
    if (finished.length > 0) await record()
    if (stopped) return
    const throttled = start()
    if (requests > 0 || finished.length > 0 || throttled) {
      state = "scheduled"
      setTimeout(() => (current = tick()), TICK_MS)
      return
    }
    state = "idle"
    armTimer()
    checkIdle()
  }

  /**
   * Starts what is due, one delivery per lane in turn (a backlog in one lane does not take every token), each
   * lane within its own slots; true when the pace held some back.
   */
  const start = (): boolean => {
    const t = performance.now()
    tokens = Math.min(burst, tokens + ((t - refilledAt) * rate) / 1000)
    refilledAt = t
    const now = clock.now()
    for (let started = true; started; ) {
      started = false
      for (const lane of lanes.values()) {
        if (lane.inFlight >= concurrency) continue
        const top = head(lane)
        if (top === undefined || top.at > now) continue
        if (tokens < 1) return true
        tokens--
        lane.queue.pop()
        if (attempt(top.delivery, now, lane)) started = true
      }
    }
    return false
  }

  // While simulated time follows the wall clock, the next retry comes due by itself.
  const armTimer = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const at = nextDue()
    if (at === undefined || clock.isFrozen()) return
    timer = setTimeout(wake, Math.min(Math.max(at - clock.now(), 5), 1_000))
    timer.unref()
  }

  const attempt = (d: DeliveryView, at: number, lane: Lane): boolean => {
    const sub = outbox.subscriptions.get(d.webhookId)
    if (sub === undefined || sub.status !== "active") return false
    busy.add(d.deliveryId)
    requests++
    lane.inFlight++
    const body = deliveryBody(d, partsOf(d.notification, sub.config.apiVersion ?? OLDEST_API_VERSION))
    const number = d.attempts.length + 1
    const done = (outcome: HttpOutcome) => {
      requests--
      lane.inFlight--
      if (!stopped) finished.push({ delivery: d, at, outcome, attempt: number })
    }
    transport.post({ url: sub.config.url, body, secret: sub.config.secret, encoding: sub.config.signatureEncoding, timeoutMs }, done)
    return true
  }

  const eventOf = ({ delivery: d, at, outcome, attempt }: Finished): WebhookDeliveryEvent => {
    const schedule = outbox.subscriptions.get(d.webhookId)?.config.retrySchedule ?? defaultSchedule
    const verdict = decideAttempt(outcome, d.failuresInRound, schedule, simInstant(clock.now()))
    return {
      type: "WebhookDeliveryAttempted",
      data: {
        webhookId: d.webhookId,
        deliveryId: d.deliveryId,
        notificationId: d.notification.id,
        attempt,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: outcome.durationMs,
        ...verdict,
        at: simInstant(at),
      },
    }
  }

  // One append batch per tick; a failed append is retried, never dropped (at least once).
  const record = async (): Promise<void> => {
    const batch = finished
    finished = []
    const events = batch.map(eventOf)
    // Read back before the grants are settled, so that this node's view of each delivery is current. A read of the
    // log at once, not a wait for the live subscription: when that lags (a burst of notifications), the read also
    // brings the models up to date in one go.
    const exit = await host.run(recordDeliveryEvents(events).pipe(Effect.flatMap((r) => host.awaitPosition(r.position))))
    if (Exit.isFailure(exit)) {
      host.logError?.({ webhooks: "recording delivery attempts failed; retrying in 1 s", cause: String(exit.cause) })
      finished = [...batch, ...finished]
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 1_000))
      return
    }
    counts.attempts += events.length
    counts.delivered += events.filter((e) => e.type === "WebhookDeliveryAttempted" && e.data.result === "delivered").length
    for (const { delivery } of batch) {
      busy.delete(delivery.deliveryId)
      if (grants === undefined) {
        if (delivery.status === "pending") enqueue(delivery)
        continue
      }
      // Recorded and visible here: the message is done; a retry comes back as the message of this attempt.
      const g = grants.get(delivery.deliveryId)
      grants.delete(delivery.deliveryId)
      g?.settle()
      const next = afterRecord.get(delivery.deliveryId)
      afterRecord.delete(delivery.deliveryId)
      if (next !== undefined) grantNow(delivery, next)
    }
  }

  /** Shared: the delivery is this node's to attempt while the message lasts; done at once when nothing is due. */
  const grantNow = (d: DeliveryView, g: Grant) => {
    if (d.status !== "pending") return g.settle()
    const before = grants!.get(d.deliveryId)
    grants!.set(d.deliveryId, g)
    if (before !== undefined && before !== g) before.settle()
    enqueue(d)
    wake()
  }

  const shared =
    options.shared === undefined || grants === undefined
      ? undefined
      : startSharedDispatch({
          outbox,
          groups: options.shared.groups,
          messageTimeoutMs: options.shared.messageTimeoutMs ?? 30_000,
          window: concurrency,
          caughtUp: async (position) => Exit.isSuccess(await host.run(caughtUp(position))),
          logError: host.logError,
          target: {
            grant: (d, g) => {
              // While an attempt is in flight or being recorded, the message waits for its record: the store may
              // give the attempt's own event (a retry now due) to this node before the attempt is recorded here.
              if (busy.has(d.deliveryId)) {
                const before = afterRecord.get(d.deliveryId)
                afterRecord.set(d.deliveryId, g)
                if (before !== undefined && before !== g) before.settle()
                return
              }
              grantNow(d, g)
            },
            revoke: (deliveryId, g) => {
              if (afterRecord.get(deliveryId) === g) {
                afterRecord.delete(deliveryId)
                return true
              }
              if (grants.get(deliveryId) !== g || busy.has(deliveryId)) return false
              grants.delete(deliveryId)
              return true
            },
          },
        })
  if (shared === undefined) {
    outbox.listen((d) => {
      enqueue(d)
      wake()
    })
    for (const d of outbox.pending()) enqueue(d)
  } else {
    outbox.listen(() => wake())
  }
  wake()

  return {
    wake,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        if (state === "idle") checkIdle()
        wake()
      }),
    stats: () => ({ inFlight: requests, ...counts }),
    stop: async () => {
      if (stopped) return
      stopped = true
      outbox.listen(undefined)
      await shared?.stop()
      if (timer !== undefined) clearTimeout(timer)
      await current
      // Attempts already answered are recorded; those still in flight are abandoned and attempted after a restart.
      if (finished.length > 0) await record()
      transport.close()
      for (const w of idleWaiters) w()
    },
  }
}
