// The verification handshake: a signed challenge POSTed to the subscription's URL; the receiver proves it
// controls the endpoint (and holds the secret, if it checks X-Signature) by answering 2xx with the challenge.
import type { HttpOutcome, WebhookConfig } from "../domain/webhook/index.js"
import { makeHttpTransport, postOnce } from "./http.js"
import { verificationBody } from "./payload.js"

export interface HandshakeResult {
  readonly ok: boolean
  readonly reason: string
  readonly outcome: HttpOutcome
}

/** The answer must be the challenge itself (as text) or a JSON object whose `challenge` is it. */
const echoes = (body: string, challenge: string): boolean => {
  const text = body.trim()
  if (text === challenge) return true
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === "object" && parsed !== null && (parsed as { challenge?: unknown }).challenge === challenge
  } catch {
    return false
  }
}

export const handshake = async (config: WebhookConfig, challenge: string, timeoutMs = 5_000): Promise<HandshakeResult> => {
  const transport = makeHttpTransport({ maxSockets: 1 })
  try {
    const body = verificationBody(config.webhookId, challenge, config.apiVersion)
    const r = await postOnce(transport, {
      url: config.url,
      body,
      secret: config.secret,
      encoding: config.signatureEncoding,
      timeoutMs,
      keepBody: 4096,
    })
    const outcome: HttpOutcome = { statusCode: r.statusCode, error: r.error, durationMs: r.durationMs }
    if (r.statusCode === null) return { ok: false, reason: `the verification request failed: ${r.error ?? "no answer"}`, outcome }
    if (r.statusCode < 200 || r.statusCode > 299)
      return { ok: false, reason: `the verification request was answered ${r.statusCode}`, outcome }
    if (!echoes(r.body, challenge)) return { ok: false, reason: "the answer did not echo the challenge", outcome }
    return { ok: true, reason: "", outcome }
  } finally {
    transport.close()
  }
}
