// Secrets in an exported log: an API key's HMAC secret and passphrase salt and hash, a webhook's signing secret.
// An export leaves them out unless asked (README: "Exports and secrets"): each such field is written empty and the
// event's metadata names them (`redacted`). A replay fills them in, with the secrets the caller supplies for a key or
// a webhook, or with fresh random ones, and reports what it filled in; what a reader of the world can see (every
// answer, the audit digest) does not depend on them.
import { randomBytes } from "node:crypto"
import { Schema } from "effect"
import { hashPassphrase } from "../commands/workspace.js"
import type { JsonValue, RecordedEvent } from "../store/event-store.js"
import type { LoggedEvent } from "./format.js"

/** The fields each event type keeps secret, all redacted together. */
const SECRET_FIELDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  ApiKeyCreated: ["secret", "passphraseSalt", "passphraseHash"],
  WebhookSubscribed: ["secret"],
}

/** The event as an export without secrets writes it (other events as they are). */
export const redactEvent = (e: RecordedEvent): RecordedEvent => {
  const fields = SECRET_FIELDS[e.type]
  if (fields === undefined) return e
  const data = { ...(e.data as Record<string, JsonValue>) }
  for (const f of fields) data[f] = ""
  return {
    stream: e.stream,
    revision: e.revision,
    position: e.position,
    id: e.id,
    type: e.type,
    data,
    metadata: { ...e.metadata, redacted: [...fields] },
  }
}

/** Secrets a replay gives the keys and webhooks whose secrets an export left out (by key, by webhook id). */
export const SuppliedSecrets = Schema.Struct({
  apiKeys: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Struct({
        secret: Schema.optionalKey(
          Schema.String.check(
            Schema.isPattern(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, { message: "secret must be Base64" }),
            Schema.isMinLength(4),
          ),
        ),
        passphrase: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1))),
      }),
    ),
  ),
  webhooks: Schema.optionalKey(Schema.Record(Schema.String, Schema.String.check(Schema.isMinLength(1)))),
})
export type SuppliedSecrets = typeof SuppliedSecrets.Type

/** What a replay filled in: the credentials of each key, the secret of each webhook. */
export interface FilledSecrets {
  readonly apiKeys: Array<{ readonly key: string; readonly secret: string; readonly passphrase: string }>
  readonly webhooks: Array<{ readonly webhookId: string; readonly secret: string }>
}

/** Fills the secrets of redacted events in as a log is loaded; `fill` answers the event to load, or why it cannot be. */
export const makeSecretFiller = (supplied: SuppliedSecrets = {}) => {
  const filled: FilledSecrets = { apiKeys: [], webhooks: [] }
  const fill = (e: LoggedEvent): LoggedEvent | string => {
    const marked = e.metadata.redacted
    if (marked === undefined) return e
    const fields = SECRET_FIELDS[e.type]
    if (fields === undefined || !Array.isArray(marked) || marked.length !== fields.length || fields.some((f) => !marked.includes(f)))
      return `metadata.redacted must name ${fields === undefined ? "no field of this event type (its type holds no secret)" : `exactly ${fields.join(", ")}`}`
    const data = { ...(e.data as Record<string, JsonValue>) }
    if (fields.some((f) => data[f] !== "")) return `a redacted event holds its secrets empty (${fields.join(", ")})`
    const { redacted: _, ...metadata } = e.metadata
    if (e.type === "ApiKeyCreated") {
      const key = String(data.key)
      const given = supplied.apiKeys?.[key]
      const secret = given?.secret ?? randomBytes(32).toString("base64")
      const passphrase = given?.passphrase ?? randomBytes(12).toString("hex")
      const salt = randomBytes(16).toString("hex")
      Object.assign(data, { secret, passphraseSalt: salt, passphraseHash: hashPassphrase(salt, passphrase) })
      filled.apiKeys.push({ key, secret, passphrase })
    } else {
      const webhookId = String(data.webhookId)
      const secret = supplied.webhooks?.[webhookId] ?? randomBytes(24).toString("base64url")
      data.secret = secret
      filled.webhooks.push({ webhookId, secret })
    }
    return { ...e, data, metadata: metadata as LoggedEvent["metadata"] }
  }
  return { fill, filled }
}
