// A RequestModule cycling through a given list of GET paths (the load generator signs each request).
import type { RequestSpec } from "./requests.js"

export default (urls: ReadonlyArray<string>) =>
  (n: number): RequestSpec => ({ method: "GET", url: urls[n % urls.length]! })
