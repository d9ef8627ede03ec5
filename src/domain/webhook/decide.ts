// Webhook decisions: a subscription is created once, verified before it is operational, deleted at most once;
// and the pure rule that turns a delivery attempt's outcome into delivered / retry at / given up.
import { absurd, accept, reject, type Decision } from "../shared/decider.js"
import { addSeconds, type SimInstant } from "../shared/sim-time.js"
import type { WebhookCommand } from "./commands.js"
import type { DeliveryResult, HttpOutcome, WebhookEvent } from "./events.js"
import type { WebhookError, WebhookState } from "./state.js"

const notFound = (s: WebhookState): WebhookError => ({ _tag: "WebhookNotFound", webhookId: s._tag === "Absent" ? "" : s.config.webhookId })

export const decide = (c: WebhookCommand, s: WebhookState): Decision<WebhookEvent, WebhookError> => {
  switch (c.type) {
    case "CreateWebhook":
      if (s._tag !== "Absent") return reject({ _tag: "WebhookAlreadyExists", webhookId: c.config.webhookId })
      // The dashboard's domain verification is done before the endpoint is saved: operational from the start.
      return c.config.verification === "dashboard"
        ? accept(
            { type: "WebhookSubscribed", data: { ...c.config, at: c.now } },
            { type: "WebhookVerified", data: { webhookId: c.config.webhookId, method: "dashboard", outcome: null, at: c.now } },
          )
        : accept({ type: "WebhookSubscribed", data: { ...c.config, at: c.now } })
    case "RecordVerification": {
      if (s._tag === "Absent" || s._tag === "Deleted") return reject(notFound(s))
      // Verifying an operational subscription again changes nothing.
      if (s._tag === "Active") return accept()
      const webhookId = s.config.webhookId
      return c.ok
        ? accept({ type: "WebhookVerified", data: { webhookId, method: c.method, outcome: c.outcome, at: c.now } })
        : accept({
            type: "WebhookVerificationFailed",
            data: { webhookId, reason: c.reason, outcome: c.outcome ?? { statusCode: null, error: c.reason, durationMs: 0 }, at: c.now },
          })
    }
    case "DeleteWebhook":
      return s._tag === "Pending" || s._tag === "Active"
        ? accept({ type: "WebhookDeleted", data: { webhookId: s.config.webhookId, at: c.now } })
        : reject(notFound(s))
    default:
      return absurd(c)
  }
}

/** Seconds to wait after the 1st, 2nd, … failed attempt; when it runs out the delivery is given up. */
export const DEFAULT_RETRY_SCHEDULE: ReadonlyArray<number> = [10, 30, 120, 300, 900, 1800, 3600, 7200, 14400]

export const isDelivered = (o: HttpOutcome): boolean => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300

/**
 * The verdict on an attempt: `failuresBefore` counts the failed attempts since the delivery was created or last
 * redelivered, so a redelivery starts the schedule over.
 */
export const decideAttempt = (
  outcome: HttpOutcome,
  failuresBefore: number,
  schedule: ReadonlyArray<number>,
  finishedAt: SimInstant,
): { readonly result: DeliveryResult; readonly nextAttemptAt: number | null } => {
  if (isDelivered(outcome)) return { result: "delivered", nextAttemptAt: null }
  const delay = schedule[failuresBefore]
  return delay === undefined
    ? { result: "given-up", nextAttemptAt: null }
    : { result: "retrying", nextAttemptAt: addSeconds(finishedAt, delay) }
}
