// A typed client for the simulated custody service (and the real one): signs every request as the spec says.
import { signRequest, type Credentials } from "./signing.js"

export { computeSignature, signatureMessage, signedQuery, signRequest, type Credentials } from "./signing.js"
export {
  computeWebhookSignature,
  verifyWebhookSignature,
  type VerifyWebhookSignatureInput,
  type WebhookSignatureEncoding,
} from "./webhooks.js"

/** Success envelope of the custody API. */
export interface Envelope<D> {
  readonly apiVersion: string
  readonly requestId: string
  readonly context?: string
  readonly data: D
}

/** Error envelope of the custody API. */
export interface ErrorEnvelope {
  readonly apiVersion: string
  readonly requestId: string
  readonly context?: string
  readonly error: {
    readonly code: string
    readonly message: string
    readonly details: ReadonlyArray<{ attribute: string; message: string }>
  }
}

/**
 * The answer of a call: HTTP status plus the parsed body. `body.data` is there when `ok`, `body.error` when not
 * (one type for both keeps call sites short; check `ok` or `status` first).
 */
export interface ApiResponse<D> {
  readonly ok: boolean
  readonly status: number
  readonly body: Envelope<D> & ErrorEnvelope
}

export interface ClientOptions {
  /** e.g. "http://127.0.0.1:8080" */
  readonly baseUrl: string
  readonly credentials: Credentials
  /** A fetch implementation (default: global fetch); pass `app.fetch`-backed functions to call in-process. */
  readonly fetch?: (request: Request) => Promise<Response>
  readonly apiVersion?: string
  /** Seconds since the epoch used for x-api-timestamp (default: the wall clock). */
  readonly now?: () => number
}

export interface CallOptions {
  readonly query?: Readonly<Record<string, string | number | undefined>>
  /** The `item` of the body; wrapped as `{ context?, data: { item } }`. */
  readonly item?: unknown
  readonly context?: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * Calls the custody REST API with HMAC-signed requests.
 * @example
 * const client = new CustodyClient({ baseUrl, credentials: { key, secret, passphrase } })
 * const vaults = await client.call("GET", "/vaults", { query: { limit: 10 } })
 */
export class CustodyClient {
  constructor(private readonly options: ClientOptions) {}

  /** Signs and sends one request; never throws for HTTP errors (see `ok`). */
  async call<D = unknown>(method: "GET" | "POST" | "PUT", path: string, options: CallOptions = {}): Promise<ApiResponse<D>> {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) params.append(k, String(v))
    const qs = params.toString()
    const url = qs.length > 0 ? `${path}?${qs}` : path
    const body =
      method === "GET"
        ? ""
        : JSON.stringify(
            options.context === undefined
              ? { data: { item: options.item ?? {} } }
              : { context: options.context, data: { item: options.item ?? {} } },
          )
    const headers = signRequest(this.options.credentials, {
      method,
      url,
      body,
      ...(this.options.now !== undefined ? { timestamp: this.options.now() } : {}),
      ...(this.options.apiVersion !== undefined ? { apiVersion: this.options.apiVersion } : {}),
    })
    const request = new Request(this.options.baseUrl.replace(/\/$/, "") + url, {
      method,
      headers: { ...headers, ...options.headers },
      ...(method === "GET" ? {} : { body }),
    })
    const response = await (this.options.fetch ?? fetch)(request)
    const parsed = (await response.json()) as Envelope<D> & ErrorEnvelope
    return { ok: response.ok, status: response.status, body: parsed }
  }

  /** #1 GET /vaults */
  listVaults(query: { limit?: number; startingAfter?: string; context?: string } = {}) {
    return this.call<{ limit: number; startingAfter?: string; hasMore: boolean; items: Array<Record<string, unknown>> }>("GET", "/vaults", {
      query,
    })
  }
}
