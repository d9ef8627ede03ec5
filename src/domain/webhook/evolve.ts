// Webhook subscription evolve: total and quiet.
import { absurd } from "../shared/decider.js"
import type { WebhookEvent } from "./events.js"
import type { WebhookState } from "./state.js"

export const evolve = (s: WebhookState, e: WebhookEvent): WebhookState => {
  switch (e.type) {
    case "WebhookSubscribed": {
      if (s._tag !== "Absent") return s
      const { at: _at, ...config } = e.data
      return { _tag: "Pending", config, verificationAttempts: 0 }
    }
    case "WebhookVerified":
      return s._tag === "Pending" ? { _tag: "Active", config: s.config } : s
    case "WebhookVerificationFailed":
      return s._tag === "Pending" ? { ...s, verificationAttempts: s.verificationAttempts + 1 } : s
    case "WebhookDeleted":
      return s._tag === "Pending" || s._tag === "Active" ? { _tag: "Deleted", config: s.config } : s
    default:
      return absurd(e)
  }
}
