// Every event type the simulator writes: an imported log may hold only these.
import type { ApiKeyEvent } from "../domain/api-key/index.js"
import { chainEventTypes } from "../chain-sim/events.js"
import { ledgerEventTypes } from "../domain/ledger/events.js"
import type { FaultEvent } from "../domain/fault/events.js"
import type { SettingsEvent } from "../domain/settings/index.js"
import { txRequestEventTypes } from "../domain/transaction-request/events.js"
import { vaultAccountEventTypes } from "../domain/vault-account/events.js"
import type { VaultEvent } from "../domain/vault/index.js"
import type { WebhookDeliveryEvent, WebhookEvent } from "../domain/webhook/events.js"

// Records over the unions: adding an event type to one of these aggregates without listing it here fails to compile.
const vault: Record<VaultEvent["type"], true> = { VaultCreated: true, VaultApprovalPolicySet: true }
const apiKey: Record<ApiKeyEvent["type"], true> = { ApiKeyCreated: true, ApiKeyRevoked: true }
const settings: Record<SettingsEvent["type"], true> = { ExchangeRatesSet: true }
const fault: Record<FaultEvent["type"], true> = { FaultAdded: true, FaultRemoved: true, FaultsCleared: true, FaultHit: true }
const webhook: Record<WebhookEvent["type"] | WebhookDeliveryEvent["type"], true> = {
  WebhookSubscribed: true,
  WebhookVerified: true,
  WebhookVerificationFailed: true,
  WebhookDeleted: true,
  WebhookDeliveryAttempted: true,
  WebhookRedeliveryRequested: true,
}

export const knownEventTypes: ReadonlySet<string> = new Set([
  ...Object.keys(vault),
  ...Object.keys(apiKey),
  ...Object.keys(settings),
  ...Object.keys(fault),
  ...Object.keys(webhook),
  ...vaultAccountEventTypes,
  ...ledgerEventTypes,
  ...txRequestEventTypes,
  ...chainEventTypes,
])
