// Several nodes on one store: which node delivers what. Each active subscription has a consumer group on the store
// (EventStoreDB persistent subscriptions) over the events that make a delivery due: a notification, a failed attempt
// that schedules a retry, a redelivery request. The store gives each such event to one node; that node attempts the
// delivery, records the attempt, and only then acknowledges. A node that dies or stalls holding a message loses it to
// another node once the message times out, so nothing stays held by a node that is gone.
import type { ConsumerGroupMember, ConsumerGroups, GroupMessage } from "../store/event-store.js"
import type { RecordedEvent } from "../store/event-store.js"
import { deliveryIdentity, type DeliveryView, type OutboxModel } from "../projections/outbox.js"
import { storedAs } from "../events/stored-event.js"

/** A node's right to attempt one delivery, given by a message it holds; settling acknowledges the message. */
export interface Grant {
  readonly settle: () => void
}

export interface GrantTarget {
  /** The delivery is this node's to attempt while the grant lasts. */
  readonly grant: (d: DeliveryView, g: Grant) => void
  /** Takes the grant back unless its attempt has started; true when it was taken back. */
  readonly revoke: (deliveryId: string, g: Grant) => boolean
}

export interface SharedDispatchOptions {
  readonly outbox: OutboxModel
  readonly groups: ConsumerGroups
  /** Resolves true once the read models hold the event at this position. */
  readonly caughtUp: (position: bigint) => Promise<boolean>
  readonly target: GrantTarget
  readonly messageTimeoutMs: number
  readonly window: number
  readonly logError?: (entry: Record<string, unknown>) => void
}

export const DUE_EVENT_TYPES = ["NotificationRaised", "WebhookDeliveryAttempted", "WebhookRedeliveryRequested"] as const
const dueTypes: ReadonlySet<(typeof DUE_EVENT_TYPES)[number]> = new Set(DUE_EVENT_TYPES)
const attemptTypes = new Set(["WebhookDeliveryAttempted"] as const)

export const groupName = (webhookId: string) => `custody-sim-webhook-${webhookId}`

/** The delivery of this subscription the event made due, if any. */
const deliveryOf = (outbox: OutboxModel, webhookId: string, e: RecordedEvent): DeliveryView | undefined => {
  const due = storedAs(e, dueTypes)
  if (due === undefined) return undefined
  if (due.type === "NotificationRaised") return outbox.deliveries.get(deliveryIdentity(webhookId, e).deliveryId)
  return due.data.webhookId === webhookId ? outbox.deliveries.get(due.data.deliveryId) : undefined
}

/** The message is the delivery's latest change: anything recorded since (by any node) makes it stale. */
const isCurrent = (d: DeliveryView, e: RecordedEvent) =>
  d.status === "pending" &&
  (e.type === "NotificationRaised" ? d.changes.length === 0 : d.changes[d.changes.length - 1]?.position === e.position)

interface Membership {
  readonly joined: Promise<ConsumerGroupMember | undefined>
}

export const startSharedDispatch = (o: SharedDispatchOptions): { readonly stop: () => Promise<void> } => {
  const members = new Map<string, Membership>()
  let stopped = false
  // A message not yet due is held for at most half its timeout, then given back: the store offers it again.
  const holdMs = Math.max(1, Math.floor(o.messageTimeoutMs / 2))

  const handle = async (webhookId: string, m: GroupMessage, member: ConsumerGroupMember) => {
    // An attempt that delivered or gave up makes nothing due (only a retry does): done without waiting to read it.
    const attempt = storedAs(m.event, attemptTypes)
    if (attempt !== undefined && attempt.data.result !== "retrying") return member.ack(m)
    if (!(await o.caughtUp(m.event.position))) return member.release(m, "read models behind")
    const d = deliveryOf(o.outbox, webhookId, m.event)
    if (d === undefined || !isCurrent(d, m.event)) return member.ack(m)
    let timer: ReturnType<typeof setTimeout> | undefined
    const g: Grant = {
      settle: () => {
        if (timer !== undefined) clearTimeout(timer)
        member.ack(m)
      },
    }
    o.target.grant(d, g)
    timer = setTimeout(() => {
      if (o.target.revoke(d.deliveryId, g)) member.release(m, "not due yet")
    }, holdMs)
    timer.unref()
  }

  const join = (webhookId: string, fromPosition: bigint) => {
    let member: ConsumerGroupMember | undefined
    const pending: Array<GroupMessage> = []
    const forget = () => {
      // Joined again on a later pass, after a pause so that a store that is down is not hammered.
      setTimeout(() => members.delete(webhookId), 1_000).unref()
    }
    const joined = o.groups
      .join(
        { group: groupName(webhookId), eventTypes: DUE_EVENT_TYPES, fromPosition, messageTimeoutMs: o.messageTimeoutMs, window: o.window },
        {
          onMessage: (m) => (member === undefined ? pending.push(m) : void handle(webhookId, m, member)),
          onDrop: (cause) => {
            if (stopped) return
            o.logError?.({ webhooks: `consumer group of ${webhookId} dropped; joining again`, cause: String(cause) })
            forget()
          },
        },
      )
      .then((m) => {
        member = m
        for (const p of pending.splice(0)) void handle(webhookId, p, m)
        return m
      })
      .catch((cause: unknown) => {
        o.logError?.({ webhooks: `cannot join the consumer group of ${webhookId}; trying again`, cause: String(cause) })
        forget()
        return undefined
      })
    members.set(webhookId, { joined })
  }

  const sync = () => {
    if (stopped) return
    for (const [id, s] of o.outbox.subscriptions) {
      if (s.status === "active" && !members.has(id)) {
        const activated = s.changes.find((c) => c.status === "active")?.position ?? s.createdPosition
        join(id, activated)
      } else if (s.status === "deleted" && members.has(id)) {
        const m = members.get(id)!
        members.set(id, { joined: Promise.resolve(undefined) })
        void m.joined
          .then((member) => member?.close())
          .then(() => o.groups.remove(groupName(id)))
          .catch(() => {})
      }
    }
  }
  sync()
  const timer = setInterval(sync, 250)
  timer.unref()

  return {
    stop: async () => {
      stopped = true
      clearInterval(timer)
      // Leaving gives back every message held here at once, rather than after its timeout.
      await Promise.all([...members.values()].map(async (m) => (await m.joined)?.close().catch(() => {})))
    },
  }
}
