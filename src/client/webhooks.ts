// Webhook signatures: X-Signature is HMAC-SHA256 over the raw body bytes, keyed with the secret's UTF-8 bytes.
import { createHmac, timingSafeEqual } from "node:crypto"

export type WebhookSignatureEncoding = "base64" | "hex"

/** The X-Signature value for a body: Base64 (default) or hex of HMAC-SHA256(UTF-8(secret), body bytes). */
export const computeWebhookSignature = (body: string | Uint8Array, secret: string, encoding: WebhookSignatureEncoding = "base64"): string =>
  createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest(encoding)

export interface VerifyWebhookSignatureInput {
  /** The request body exactly as received (the raw bytes, or their UTF-8 text): never a re-serialisation. */
  readonly body: string | Uint8Array
  /** The X-Signature header. */
  readonly signature: string | null | undefined
  /** The subscription's signing secret. */
  readonly secret: string
  /** How the subscription encodes signatures (default "base64"). */
  readonly encoding?: WebhookSignatureEncoding
}

/**
 * Checks a webhook delivery's X-Signature in constant time.
 * @example
 * const ok = verifyWebhookSignature({ body: rawBody, signature: req.headers["x-signature"], secret })
 */
export const verifyWebhookSignature = (input: VerifyWebhookSignatureInput): boolean => {
  if (typeof input.signature !== "string" || input.signature.length === 0) return false
  const encoding = input.encoding ?? "base64"
  const expected = Buffer.from(computeWebhookSignature(input.body, input.secret, encoding))
  const trimmed = input.signature.trim()
  const given = Buffer.from(encoding === "hex" ? trimmed.toLowerCase() : trimmed)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
