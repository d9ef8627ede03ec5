// A fault as the control plane takes it (`POST /_sim/faults`, `serve --fault`): missing and unknown attributes 409,
// then each bad value a 400 `invalid_data` naming it (`match.method`, `effect.status`, …).
import type { NewFault } from "../../commands/faults.js"
import { API_VERSIONS } from "../../domain/api-key/versions.js"
import type { ApiFaultEffect, ApiFaultMatch, FaultDefinition, WebhookFaultEffect, WebhookFaultMatch } from "../../domain/fault/index.js"
import { notificationKinds } from "../../domain/webhook/index.js"
import { type AttributeSpec, checkAttributes, type FieldCheck, type JsonObject } from "../body.js"
import { type ApiError, errors } from "../errors.js"

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"] as const
const API_STATUSES = [429, 500, 502, 503, 504] as const
const API_KINDS = ["status", "delay", "reset", "timeout", "lost-answer"] as const
const WEBHOOK_KINDS = ["duplicate", "delay", "reorder", "fail"] as const
/** The longest wall-clock delay of an API answer, ms (ten minutes). */
export const MAX_DELAY_MS = 600_000

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v)
const object: FieldCheck = (v) => (isObject(v) ? undefined : "must be an object")
const whole =
  (min: number, max: number): FieldCheck =>
  (v) =>
    typeof v === "number" && Number.isInteger(v) && v >= min && v <= max ? undefined : `must be a whole number from ${min} to ${max}`
const text =
  (max: number): FieldCheck =>
  (v) =>
    typeof v === "string" && v.length >= 1 && v.length <= max ? undefined : `must be a string of 1 to ${max} characters`
const oneOf =
  (values: ReadonlyArray<string | number>): FieldCheck =>
  (v) =>
    values.includes(v as never) ? undefined : `must be one of ${values.join(", ")}`

const faultSpec: AttributeSpec = {
  required: { match: object, effect: object },
  optional: {
    target: oneOf(["api", "webhook"]),
    times: whole(1, 1_000_000),
    every: whole(1, 1_000_000),
    probability: (v) => (typeof v === "number" && v >= 0 && v <= 1 ? undefined : "must be a number from 0 to 1"),
    seed: text(200),
  },
}

const matchSpecs: Readonly<Record<FaultDefinition["target"], AttributeSpec>> = {
  api: {
    optional: {
      method: (v) =>
        typeof v === "string" && METHODS.includes(v.toUpperCase() as never) ? undefined : `must be one of ${METHODS.join(", ")}`,
      path: (v) => (typeof v === "string" && v.startsWith("/") && v.length <= 2048 ? undefined : 'must be a path starting with "/"'),
      apiKey: text(200),
      apiVersion: oneOf(API_VERSIONS),
    },
  },
  webhook: { required: { webhookId: text(200) }, optional: { event: oneOf(notificationKinds) } },
}

const effectSpec = (target: FaultDefinition["target"], kind: string): AttributeSpec => {
  const kinds = target === "api" ? API_KINDS : WEBHOOK_KINDS
  const base = { kind: oneOf(kinds) }
  if (target === "api" && kind === "status") return { required: { ...base, status: oneOf(API_STATUSES) } }
  if (target === "api" && kind === "delay") return { required: { ...base, ms: whole(0, MAX_DELAY_MS) } }
  if (target === "webhook" && kind === "delay") return { required: { ...base, seconds: whole(1, 30 * 86_400) } }
  if (target === "webhook" && kind === "fail")
    return {
      required: {
        ...base,
        status: (v) =>
          typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599 && (v < 200 || v > 299)
            ? undefined
            : "must be an HTTP status from 100 to 599 outside 2xx",
      },
    }
  return { required: base }
}

/** An error of a nested object (missing, unknown or bad attributes alike): a 400 naming them under `prefix`. */
const nested = (prefix: string, e: ApiError | undefined): ApiError | undefined =>
  e === undefined ? undefined : errors.invalidData(e.details.map((d) => ({ ...d, attribute: `${prefix}.${d.attribute}` })))

/** The fault the body describes, or the refusal. */
export const decodeFault = (body: JsonObject): NewFault | ApiError => {
  const bad = checkAttributes(body, faultSpec, errors.extraBodyAttributes)
  if (bad !== undefined) return bad
  const target = (body.target ?? "api") as FaultDefinition["target"]
  const match = body.match as JsonObject
  const effect = body.effect as JsonObject
  const badMatch = nested("match", checkAttributes(match, matchSpecs[target], errors.extraBodyAttributes))
  if (badMatch !== undefined) return badMatch
  const badEffect = nested("effect", checkAttributes(effect, effectSpec(target, String(effect.kind)), errors.extraBodyAttributes))
  if (badEffect !== undefined) return badEffect
  const schedule = {
    times: (body.times ?? null) as number | null,
    every: (body.every ?? null) as number | null,
    probability: (body.probability ?? null) as number | null,
    seed: (body.seed ?? null) as string | null,
  }
  if (target === "webhook")
    return { ...schedule, target, match: match as unknown as WebhookFaultMatch, effect: effect as unknown as WebhookFaultEffect }
  const m = match as ApiFaultMatch
  return {
    ...schedule,
    target,
    match: m.method === undefined ? m : { ...m, method: m.method.toUpperCase() },
    effect: effect as unknown as ApiFaultEffect,
  }
}
