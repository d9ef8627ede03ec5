// Minimal types for autocannon 8 (it ships none): only what the load generator uses.
declare module "autocannon" {
  interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest | undefined
  }
  interface Histogram {
    readonly average: number
    readonly mean: number
    readonly stddev: number
    readonly min: number
    readonly max: number
    readonly total: number
    readonly p50: number
    readonly p90: number
    readonly p99: number
  }
  interface AutocannonResult {
    readonly duration: number
    readonly errors: number
    readonly timeouts: number
    readonly non2xx: number
    readonly "2xx": number
    readonly requests: Histogram & { readonly sent: number }
    readonly latency: Histogram
    readonly throughput: Histogram
    readonly statusCodeStats?: Record<string, { count: number }>
  }
  interface AutocannonOptions {
    url: string
    connections?: number
    pipelining?: number
    duration?: number
    amount?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    requests?: Array<AutocannonRequest>
  }
  interface AutocannonClient {
    setHeaders(headers: Record<string, string>): void
  }
  interface Tracker extends PromiseLike<AutocannonResult> {
    on(event: "response", listener: (client: AutocannonClient, statusCode: number, resBytes: number, responseTime: number) => void): this
  }
  function autocannon(options: AutocannonOptions): Tracker
  export type { AutocannonClient, AutocannonOptions, AutocannonRequest, AutocannonResult, Tracker }
  export default autocannon
}
