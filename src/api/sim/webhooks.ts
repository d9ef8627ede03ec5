// Control plane: webhook subscriptions (verification included), their delivery log and redelivery.
import { createWebhook, deleteWebhook, recordVerification, requestRedelivery } from "../../commands/webhooks.js"
import { DEFAULT_API_VERSION } from "../../commands/workspace.js"
import { notificationKinds, type WebhookConfig } from "../../domain/webhook/index.js"
import type { DeliveryView, SubscriptionView } from "../../projections/outbox.js"
import { subscriptionAt } from "../../projections/outbox-as-of.js"
import type { AsOf } from "../../projections/projection.js"
import { parseAsOf } from "../as-of.js"
import { deliveryBody, notificationParts, requestLookup, type AssetIdToWire, type RequestLookup } from "../../webhooks/payload.js"
import { API_VERSIONS, OLDEST_API_VERSION, type ApiVersion } from "../../domain/api-key/versions.js"
import { handshake } from "../../webhooks/verify.js"
import { checkAttributes, checks, type FieldCheck } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { ApiError, errors, isApiError } from "../errors.js"
import type { SimRoute } from "./common.js"
import { runCommand } from "../use-case.js"

const url: FieldCheck = (v) => {
  if (typeof v !== "string" || v.length > 2048) return "must be a URL of at most 2048 characters"
  if (/[\u0000-\u0020\u007f]/.test(v)) return "must not contain spaces or control characters"
  if (!URL.canParse(v)) return "must be an absolute http(s) URL"
  const u = new URL(v)
  return u.protocol === "http:" || u.protocol === "https:" ? undefined : "must be an http or https URL"
}
const kinds: FieldCheck = (v) => {
  if (!Array.isArray(v) || v.length === 0) return `must be a non-empty array of event kinds (${notificationKinds.join(", ")}) or ["*"]`
  if (v.includes("*")) return v.every((k) => k === "*") ? undefined : 'must be ["*"] alone or a list of event kinds'
  const bad = v.filter((k) => !notificationKinds.includes(k as never))
  return bad.length === 0 ? undefined : `has unknown event kinds: ${bad.map((k) => JSON.stringify(k)).join(", ")}`
}
const vaultIds: FieldCheck = (v) =>
  v === null || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" && /^[0-9a-f]{24}$/.test(x)))
    ? undefined
    : "must be null or a non-empty array of vault ids (24 lowercase hex characters)"
const schedule: FieldCheck = (v) =>
  Array.isArray(v) && v.length <= 50 && v.every((s) => Number.isInteger(s) && s >= 1 && s <= 30 * 86_400)
    ? undefined
    : "must be an array of at most 50 whole numbers of seconds from 1 to 2592000"

const subscriptionSpec = {
  required: {
    url,
    secret: checks.string({
      min: 1,
      max: 512,
      pattern: /^[^\u0000-\u001f\u007f]*$/,
      patternMessage: "must not contain control characters",
    }),
    events: kinds,
  },
  optional: {
    vaultIds,
    signatureEncoding: checks.oneOf(["base64", "hex"]),
    apiVersion: checks.oneOf(API_VERSIONS),
    verification: checks.oneOf(["dashboard", "request", "manual"]),
    retrySchedule: schedule,
  },
}

export const subscriptionJson = (s: SubscriptionView) => {
  const count = (status: DeliveryView["status"]) => s.deliveries.reduce((n, d) => (d.status === status ? n + 1 : n), 0)
  const v = s.lastVerification
  return {
    id: s.config.webhookId,
    url: s.config.url,
    events: s.config.events,
    vaultIds: s.config.vaultIds,
    signatureEncoding: s.config.signatureEncoding,
    ...(s.config.apiVersion !== undefined ? { apiVersion: s.config.apiVersion } : {}),
    verification: s.config.verification,
    retrySchedule: s.config.retrySchedule,
    status: s.status,
    createdAt: s.createdAt,
    verifiedAt: s.verifiedAt,
    lastVerification:
      v === null
        ? null
        : {
            at: v.at,
            ok: v.ok,
            method: v.method,
            reason: v.reason,
            statusCode: v.outcome?.statusCode ?? null,
            error: v.outcome?.error ?? null,
            durationMs: v.outcome?.durationMs ?? null,
          },
    deliveries: { total: s.deliveries.length, pending: count("pending"), delivered: count("delivered"), givenUp: count("given-up") },
  }
}

/** A delivery as the control plane shows it, its payload in the subscription's version. */
export const deliveryJsonAt = (version: ApiVersion, requestOf?: RequestLookup, toWire?: AssetIdToWire) => (d: DeliveryView) => ({
  id: d.deliveryId,
  webhookId: d.webhookId,
  idempotencyKey: d.idempotencyKey,
  event: d.notification.kind,
  notificationId: d.notification.id,
  position: Number(d.notification.position),
  walletId: d.notification.vaultId,
  subject: d.notification.subject,
  status: d.status,
  createdAt: d.notification.at,
  nextAttemptAt: d.nextAttemptAt,
  redeliveries: d.redeliveries,
  attempts: d.attempts,
  payload: JSON.parse(deliveryBody(d, notificationParts(d.notification, version, requestOf, toWire))) as unknown,
})

export const deliveryJson = deliveryJsonAt(OLDEST_API_VERSION)

const requestsOf = (deps: ApiDeps): RequestLookup => requestLookup(deps.sim.models)

/** The fixture's asset ids, as the worker's payloads show them. */
const toWireOf = (deps: ApiDeps): AssetIdToWire | undefined => (deps.sim.assetIds.any ? deps.sim.assetIds.toWire : undefined)

const live = (deps: ApiDeps, id: string | undefined): SubscriptionView | ApiError => {
  const s = deps.sim.models.outbox.subscriptions.get(id ?? "")
  return s === undefined || s.status === "deleted" ? errors.resourceNotFound("webhook subscription") : s
}

/** A subscription as the reads show it: as of `asOf`, and not once deleted. */
const seen = (deps: ApiDeps, id: string | undefined, asOf: AsOf): SubscriptionView | ApiError => {
  const now = deps.sim.models.outbox.subscriptions.get(id ?? "")
  const s = now === undefined ? undefined : subscriptionAt(now, asOf)
  return s === undefined || s.status === "deleted" ? errors.resourceNotFound("webhook subscription") : s
}

const asOfQuery = { asOf: checks.string({ min: 1, max: 64 }) }

/**
 * Request mode: the handshake, then its outcome recorded; manual mode: the admin's word is the verification. A
 * dashboard subscription is active from its creation.
 */
const verify = async (deps: ApiDeps, s: SubscriptionView) => {
  if (s.status === "active") return { position: -1n, ok: true, reason: "" }
  if (s.config.verification === "manual") {
    const r = await runCommand(deps, recordVerification(s.config.webhookId, { method: "manual", ok: true, reason: "", outcome: null }))
    return isApiError(r) ? r : { position: r.position, ok: true, reason: "" }
  }
  const challenge = Buffer.from(deps.sim.ids.bytes(`webhook:${s.config.webhookId}:challenge:${s.verificationAttempts}`, 16)).toString("hex")
  const h = await handshake(s.config, challenge)
  const r = await runCommand(deps, recordVerification(s.config.webhookId, { method: "request", ...h }))
  return isApiError(r) ? r : { position: r.position, ok: h.ok, reason: h.reason }
}

const verificationFailed = (reason: string) =>
  new ApiError(409, "webhook_verification_failed", `The endpoint was not verified: ${reason}.`, [{ attribute: "url", message: reason }])

export const webhookRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "POST",
    path: "/_sim/webhooks",
    handle: async ({ body }, deps) => {
      const bad = checkAttributes(body, subscriptionSpec, errors.extraBodyAttributes)
      if (bad !== undefined) return bad
      const vaults = (body.vaultIds ?? null) as ReadonlyArray<string> | null
      if (vaults?.some((v) => !deps.sim.models.workspace.vaultsById.has(v))) return errors.resourceNotFound("vault")
      const events = body.events as WebhookConfig["events"]
      const config: Omit<WebhookConfig, "webhookId"> = {
        url: body.url as string,
        secret: body.secret as string,
        events: events.includes("*") ? ["*"] : [...new Set(events)],
        vaultIds: vaults === null ? null : [...new Set(vaults)],
        signatureEncoding: (body.signatureEncoding ?? "base64") as WebhookConfig["signatureEncoding"],
        verification: (body.verification ?? "dashboard") as WebhookConfig["verification"],
        retrySchedule: (body.retrySchedule ?? null) as WebhookConfig["retrySchedule"],
        // Without one, the version a key created without one gets (the newest); only subscriptions written before
        // versions existed have none, and keep 2024-05-09 payloads.
        apiVersion: (body.apiVersion ?? DEFAULT_API_VERSION) as ApiVersion,
      }
      const created = await runCommand(deps, createWebhook(config))
      if (isApiError(created)) return created
      const s = deps.sim.models.outbox.subscriptions.get(created.webhookId)!
      if (config.verification === "request") {
        const v = await verify(deps, s)
        if (isApiError(v)) return v
      }
      return { status: 201, body: subscriptionJson(s) }
    },
  },
  {
    method: "GET",
    path: "/_sim/webhooks",
    handle: ({ query }, deps) => {
      const bad = checkAttributes(query, { optional: asOfQuery }, errors.extraQueryAttributes)
      if (bad !== undefined) return bad
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      if (isApiError(asOf)) return asOf
      const all = [...deps.sim.models.outbox.subscriptions.values()].flatMap((s) => subscriptionAt(s, asOf) ?? [])
      return { status: 200, body: { webhooks: all.filter((s) => s.status !== "deleted").map(subscriptionJson) } }
    },
  },
  {
    method: "GET",
    path: "/_sim/webhooks/:id",
    handle: ({ params, query }, deps) => {
      const bad = checkAttributes(query, { optional: asOfQuery }, errors.extraQueryAttributes)
      if (bad !== undefined) return bad
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      if (isApiError(asOf)) return asOf
      const s = seen(deps, params.id, asOf)
      return isApiError(s) ? s : { status: 200, body: subscriptionJson(s) }
    },
  },
  {
    method: "DELETE",
    path: "/_sim/webhooks/:id",
    handle: async ({ params }, deps) => {
      const s = live(deps, params.id)
      if (isApiError(s)) return s
      const r = await runCommand(deps, deleteWebhook(s.config.webhookId))
      return isApiError(r) ? r : { status: 200, body: { id: s.config.webhookId, deleted: true } }
    },
  },
  {
    method: "POST",
    path: "/_sim/webhooks/:id/verify",
    handle: async ({ params, body }, deps) => {
      const bad = checkAttributes(body, {}, errors.extraBodyAttributes)
      if (bad !== undefined) return bad
      const s = live(deps, params.id)
      if (isApiError(s)) return s
      const v = await verify(deps, s)
      if (isApiError(v)) return v
      return v.ok ? { status: 200, body: subscriptionJson(s) } : verificationFailed(v.reason)
    },
  },
  {
    method: "GET",
    path: "/_sim/webhooks/:id/deliveries",
    handle: ({ params, query }, deps) => {
      const bad = checkAttributes(
        query,
        {
          optional: {
            limit: checks.string({ pattern: /^(?:[1-9][0-9]{0,2}|1000)$/, patternMessage: "must be an integer from 1 to 1000" }),
            startingAfter: checks.string({ min: 1, max: 64 }),
            status: checks.oneOf(["pending", "delivered", "given-up", "cancelled"]),
            ...asOfQuery,
          },
        },
        errors.extraQueryAttributes,
      )
      if (bad !== undefined) return bad
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      if (isApiError(asOf)) return asOf
      const s = seen(deps, params.id, asOf)
      if (isApiError(s)) return s
      const limit = Number(query.limit ?? "100")
      let list: ReadonlyArray<DeliveryView> = s.deliveries
      if (query.startingAfter !== undefined) {
        const i = list.findIndex((d) => d.deliveryId === query.startingAfter)
        if (i < 0) return errors.invalidData([{ attribute: "startingAfter", message: "is not a delivery of this subscription" }])
        list = list.slice(i + 1)
      }
      if (query.status !== undefined) list = list.filter((d) => d.status === query.status)
      return {
        status: 200,
        body: {
          deliveries: list.slice(0, limit).map(deliveryJsonAt(s.config.apiVersion ?? OLDEST_API_VERSION, requestsOf(deps), toWireOf(deps))),
          hasMore: list.length > limit,
        },
      }
    },
  },
  {
    method: "POST",
    path: "/_sim/webhooks/:id/deliveries/:deliveryId/redeliver",
    handle: async ({ params, body }, deps) => {
      const bad = checkAttributes(body, {}, errors.extraBodyAttributes)
      if (bad !== undefined) return bad
      const s = live(deps, params.id)
      if (isApiError(s)) return s
      const d = deps.sim.models.outbox.deliveries.get(params.deliveryId ?? "")
      if (d === undefined || d.webhookId !== s.config.webhookId) return errors.resourceNotFound("webhook delivery")
      const r = await runCommand(
        deps,
        requestRedelivery({ webhookId: d.webhookId, deliveryId: d.deliveryId, notificationId: d.notification.id }),
      )
      return isApiError(r)
        ? r
        : { status: 200, body: deliveryJsonAt(s.config.apiVersion ?? OLDEST_API_VERSION, requestsOf(deps), toWireOf(deps))(d) }
    },
  },
]
