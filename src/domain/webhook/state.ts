// Webhook subscription state (its statuses) and decider errors.
import type { WebhookConfig } from "./events.js"

export type WebhookState =
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Pending"; readonly config: WebhookConfig; readonly verificationAttempts: number }
  | { readonly _tag: "Active"; readonly config: WebhookConfig }
  | { readonly _tag: "Deleted"; readonly config: WebhookConfig }

export type WebhookError =
  | { readonly _tag: "WebhookAlreadyExists"; readonly webhookId: string }
  | { readonly _tag: "WebhookNotFound"; readonly webhookId: string }
