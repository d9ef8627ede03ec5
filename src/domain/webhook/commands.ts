// Webhook subscription commands.
import type { SimInstant } from "../shared/sim-time.js"
import type { HttpOutcome, VerificationMode, WebhookConfig } from "./events.js"

export type WebhookCommand =
  | { readonly type: "CreateWebhook"; readonly config: WebhookConfig; readonly now: SimInstant }
  /** `ok`: the receiver echoed the challenge (request mode), or the admin vouched for the domain (manual). */
  | {
      readonly type: "RecordVerification"
      readonly method: VerificationMode
      readonly ok: boolean
      readonly reason: string
      readonly outcome: HttpOutcome | null
      readonly now: SimInstant
    }
  | { readonly type: "DeleteWebhook"; readonly now: SimInstant }
