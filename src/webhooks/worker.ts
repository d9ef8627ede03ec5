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
import { Grants } from "./grants.js"
import { Lanes, type Lane } from "./lanes.js"
import { Pacer } from "./pacer.js"
import { TickLoop } from "./tick-loop.js"
import { makeHttpTransport, type Transport } from "./http.js"
import { makeThreadTransport } from "./thread-transport.js"
import { deliveryBody, notificationParts, type AssetIdToWire, type NotificationParts, type RequestLookup } from "./payload.js"
import { startSharedDispatch } from "./shared-dispatch.js"
import type { ConsumerGroups } from "../store/event-store.js"
import { OLDEST_API_VERSION, type ApiVersion } from "../domain/api-key/versions.js"
import { recordFaultHit } from "../commands/faults.js"
import { type FiredFault, WebhookFaults, type WebhookFaultSource } from "./faults.js"
import { FaultHolds } from "./fault-holds.js"
import type { FaultCalls } from "../adapters/fault-calls-file.js"
import { applyFault, type FaultEffectHost, plainSend, type SendMode } from "./fault-effects.js"

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
  /** The faults in force (/_sim/faults); undefined: none ever apply. */
  readonly faults?: WebhookFaultSource
  /** The calls each fault has matched, shared with the API's faults (undefined: the worker counts its own). */
  readonly faultCalls?: Pick<FaultCalls, "next">
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

interface Finished {
  readonly delivery: DeliveryView
  /** Simulated time the attempt started. */
  readonly at: number
  readonly outcome: HttpOutcome
  /** Its number, fixed when it started: a second node's attempt of the same delivery records the same number. */
  readonly attempt: number
}

// While busy the worker runs in ticks (tick-loop.ts): each records the attempts finished since the last one in one
// append batch and starts what is due.
const TICK_MS = 10

/**
 * Over 100 lines because it is one closure over the worker's state (the lanes, the deliveries in flight and
 * finished, the pacer, the tick loop), which its steps share: each step (start what is due, attempt one, record
 * what finished, arm the timer) is a named function of its own within it, a few lines each.
 */
export const startWebhookWorker = (host: WebhookWorkerHost, options: WebhookWorkerOptions = {}): WebhookWorker => {
  const concurrency = options.concurrency ?? 64
  const timeoutMs = options.timeoutMs ?? 5_000
  const defaultSchedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE
  const rate = options.maxPerSecond ?? 2_500
  const transport = options.transport ?? (options.thread === true ? makeThreadTransport : makeHttpTransport)({ maxSockets: concurrency })
  const { outbox, clock } = host
  // Attempted and not yet recorded: such a delivery is never attempted again meanwhile.
  const busy = new Set<string>()
  // Shared: the deliveries this node may attempt (undefined: all are ours).
  const grants =
    options.shared === undefined
      ? undefined
      : new Grants(busy, (d) => {
          lanes.enqueue(d)
          loop.wake()
        })
  const lanes = new Lanes(
    ({ delivery: d, at }) =>
      d.status === "pending" && d.nextAttemptAt === at && !busy.has(d.deliveryId) && (grants === undefined || grants.has(d.deliveryId)),
  )
  const pacer = new Pacer(rate, Math.max(1, (rate * 4 * TICK_MS) / 1000))
  let requests = 0
  let finished: Array<Finished> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let idleWaiters: Array<() => void> = []
  const counts = { attempts: 0, delivered: 0 }
  const faults = new WebhookFaults(host.faults ?? { webhook: [] }, host.faultCalls)
  const holds = new FaultHolds((id) => outbox.subscriptions.get(id)?.deliveries.reduce((n, d) => n + d.attempts.length, 0) ?? 0)
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

  /** When the next delivery is due or released from a fault's delay (undefined: none). */
  const nextDue = () => {
    const queued = lanes.nextDue()
    const held = holds.nextRelease()
    return queued === undefined || (held !== undefined && held < queued) ? held : queued
  }
  const dueNow = () => {
    const at = nextDue()
    return at !== undefined && at <= clock.now()
  }
  const checkIdle = () => {
    if (idleWaiters.length === 0 || !loop.idle || requests > 0 || finished.length > 0 || dueNow()) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const w of waiters) w()
  }

  /** One tick: record what finished, start what is due; busy while anything is in flight, unrecorded or held back. */
  const step = async (): Promise<"busy" | "rested"> => {
    if (finished.length > 0) await record()
    if (loop.stopped) return "rested"
    const throttled = start()
    return requests > 0 || finished.length > 0 || throttled ? "busy" : "rested"
  }
  const loop = new TickLoop(step, TICK_MS, () => {
    armTimer()
    checkIdle()
  })

  /**
   * Starts what is due, one delivery per lane in turn (a backlog in one lane does not take every token), each
   * lane within its own slots; true when the pace held some back.
   */
  const start = (): boolean => {
    pacer.refill()
    const now = clock.now()
    for (const d of holds.releasedBy(now)) release(d)
    for (let started = true; started; ) {
      started = false
      for (const lane of lanes.all()) {
        if (lane.inFlight >= concurrency || lane.blocked) continue
        const top = lanes.head(lane)
        if (top === undefined || top.at > now) continue
        if (!pacer.take()) return true
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
    timer = setTimeout(() => loop.wake(), Math.min(Math.max(at - clock.now(), 5), 1_000))
    timer.unref()
  }

  const attempt = (d: DeliveryView, at: number, lane: Lane): boolean => {
    const sub = outbox.subscriptions.get(d.webhookId)
    if (sub === undefined || sub.status !== "active") return false
    const fired = faults.pick(d)
    if (fired === undefined) send(d, at, lane, plainSend)
    else applyFault(faultHost, d, at, lane, fired)
    return true
  }

  /** Sends one attempt of `d` (twice for a `duplicate`); once answered, what a `reorder` held for its lane goes. */
  const send = (d: DeliveryView, at: number, lane: Lane, mode: SendMode): void => {
    const sub = outbox.subscriptions.get(d.webhookId)
    if (sub === undefined || sub.status !== "active") {
      busy.delete(d.deliveryId)
      return
    }
    busy.add(d.deliveryId)
    requests++
    lane.inFlight++
    const body = deliveryBody(d, partsOf(d.notification, sub.config.apiVersion ?? OLDEST_API_VERSION))
    const number = d.attempts.length + 1
    const post = (then: (outcome: HttpOutcome) => void) =>
      transport.post(
        { url: sub.config.url, body, secret: sub.config.secret, encoding: sub.config.signatureEncoding, timeoutMs, pool: d.webhookId },
        then,
      )
    const done = (answered: HttpOutcome) => {
      requests--
      lane.inFlight--
      if (loop.stopped) return
      const outcome = mode.failStatus === null ? answered : { ...answered, statusCode: mode.failStatus, error: null }
      finished.push({ delivery: d, at, outcome, attempt: number })
      for (const held of holds.afterSent(d.webhookId)) release(held)
    }
    post(mode.copies === 1 ? done : (first) => post(() => done(first)))
  }

  /** A delivery a fault held goes now, unless it is no longer pending (delivered by another node, or cancelled). */
  const release = (d: DeliveryView): void => {
    if (d.status === "pending") send(d, clock.now(), lanes.of(d.webhookId), plainSend)
    else busy.delete(d.deliveryId)
  }

  const faultHost: FaultEffectHost = {
    recordHit: async ({ faultId, call }: FiredFault, d: DeliveryView) =>
      Exit.isSuccess(
        await host.run(
          recordFaultHit({ faultId, call, requestId: null, deliveryId: d.deliveryId }).pipe(
            Effect.flatMap((r) => host.awaitPosition(r.position)),
          ),
        ),
      ),
    inFlight: (d, lane, by) => {
      if (by === 1) busy.add(d.deliveryId)
      requests += by
      lane.inFlight += by
    },
    send,
    holds,
    now: () => clock.now(),
    wake: () => loop.wake(),
    stopped: () => loop.stopped,
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
      if (!loop.stopped) await new Promise((resolve) => setTimeout(resolve, 1_000))
      return
    }
    counts.attempts += events.length
    counts.delivered += events.filter((e) => e.type === "WebhookDeliveryAttempted" && e.data.result === "delivered").length
    for (const { delivery } of batch) {
      busy.delete(delivery.deliveryId)
      if (grants !== undefined) grants.recorded(delivery)
      else if (delivery.status === "pending") lanes.enqueue(delivery)
    }
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
          target: grants,
        })
  if (shared === undefined) {
    outbox.listen((d) => {
      lanes.enqueue(d)
      loop.wake()
    })
    for (const d of outbox.pending()) lanes.enqueue(d)
  } else {
    outbox.listen(() => loop.wake())
  }
  loop.wake()

  return {
    wake: () => loop.wake(),
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        if (loop.idle) checkIdle()
        loop.wake()
      }),
    stats: () => ({ inFlight: requests, ...counts }),
    stop: async () => {
      if (loop.stopped) return
      const running = loop.stop()
      outbox.listen(undefined)
      await shared?.stop()
      if (timer !== undefined) clearTimeout(timer)
      await running
      // Attempts already answered are recorded; those still in flight are abandoned and attempted after a restart.
      if (finished.length > 0) await record()
      transport.close()
      for (const w of idleWaiters) w()
    },
  }
}
