// Webhook subscription aggregate: stream `webhook-<id>`; its deliveries' attempts go to `webhookDelivery-<id>`.
import type { Decider } from "../shared/decider.js"
import type { WebhookCommand } from "./commands.js"
import { decide } from "./decide.js"
import type { WebhookEvent } from "./events.js"
import { evolve } from "./evolve.js"
import type { WebhookError, WebhookState } from "./state.js"

export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"
export { DEFAULT_RETRY_SCHEDULE, decideAttempt } from "./decide.js"

export const webhookStream = (webhookId: string) => `webhook-${webhookId}`
export const webhookDeliveryStream = (deliveryId: string) => `webhookDelivery-${deliveryId}`

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState, WebhookError> = {
  initialState: { _tag: "Absent" },
  decide,
  evolve,
  isTerminal: (s) => s._tag === "Deleted",
}
