// The app's router: the spec's operations in a table of literal segments and `:name` parameters, precompiled;
// anything else (wildcards, middleware, patterns) in Hono's TrieRouter. The answers are the TrieRouter's.
import type { Params, Result, Router } from "hono/router"
import { TrieRouter } from "hono/router/trie-router"

interface Route<T> {
  readonly order: number
  readonly handler: T
  /** [index, text] of the literal segments. */
  readonly literals: ReadonlyArray<readonly [number, string]>
  /** [index, name] of the parameters. */
  readonly params: ReadonlyArray<readonly [number, string]>
}

interface Ordered<T> {
  readonly order: number
  readonly handler: T
}

/** Answers kept at most (a read of a vault's resource repeats its path; ids make the paths many). */
const MAX_KEPT = 4096
const PARAM = /^:[A-Za-z0-9_]+$/
const LITERAL = /^[^:*{}?]*$/

/** Segments as Hono splits a path: one leading "/" dropped, every other kept (so "/a/" has an empty last one). */
const segments = (path: string): Array<string> => {
  const parts = path.split("/")
  if (parts[0] === "") parts.shift()
  return parts
}

export class OperationRouter<T> implements Router<T> {
  readonly name = "OperationRouter"
  readonly #table = new Map<string, Map<number, Array<Route<T>>>>()
  readonly #fallback = new TrieRouter<Ordered<T>>()
  /** First segments the fallback's routes begin with; null once one begins with a parameter or wildcard. */
  #fallbackFirst: Set<string> | null = new Set()
  #fallbackEmpty = true
  #order = 0
  /**
   * Answers per method and path, kept once computed (until a route is added): a path's answer depends on nothing
   * else. At most MAX_KEPT of them: paths carry ids, so any number of distinct ones may come.
   */
  readonly #answers = new Map<string, Map<string, Result<T>>>()
  #kept = 0

  add(method: string, path: string, handler: T): void {
    this.#answers.clear()
    this.#kept = 0
    const order = ++this.#order
    const parts = segments(path)
    const simple = method !== "ALL" && parts.every((p) => PARAM.test(p) || LITERAL.test(p))
    if (!simple) {
      this.#fallback.add(method, path, { order, handler })
      this.#fallbackEmpty = false
      const first = parts[0] ?? ""
      if (!LITERAL.test(first) || first === "") this.#fallbackFirst = null
      else this.#fallbackFirst?.add(first)
      return
    }
    const route: Route<T> = {
      order,
      handler,
      literals: parts.flatMap((p, i) => (PARAM.test(p) ? [] : [[i, p] as const])),
      params: parts.flatMap((p, i) => (PARAM.test(p) ? [[i, p.slice(1)] as const] : [])),
    }
    let byLength = this.#table.get(method)
    if (byLength === undefined) this.#table.set(method, (byLength = new Map()))
    const list = byLength.get(parts.length)
    if (list === undefined) byLength.set(parts.length, [route])
    else list.push(route)
  }

  match(method: string, path: string): Result<T> {
    const known = this.#answers.get(method)?.get(path)
    if (known !== undefined) return known
    const answer = this.#search(method, path)
    if (this.#kept >= MAX_KEPT) {
      this.#answers.clear()
      this.#kept = 0
    }
    const answers = this.#answers.get(method) ?? new Map<string, Result<T>>()
    this.#answers.set(method, answers.set(path, answer))
    this.#kept++
    return answer
  }

  #search(method: string, path: string): Result<T> {
    const parts = segments(path)
    const found: Array<[T, Params]> = []
    const orders: Array<number> = []
    const candidates = this.#table.get(method)?.get(parts.length)
    if (candidates !== undefined)
      for (const route of candidates) {
        const params = matchRoute(route, parts)
        if (params !== undefined) {
          found.push([route.handler, params])
          orders.push(route.order)
        }
      }
    if (this.#fallbackEmpty || (this.#fallbackFirst !== null && !this.#fallbackFirst.has(parts[0] ?? ""))) return [found]
    const [more] = this.#fallback.match(method, path) as [Array<[Ordered<T>, Params]>]
    if (more.length === 0) return [found]
    // Registration order decides which handler answers first, as in one TrieRouter holding every route.
    const merged: Array<[number, [T, Params]]> = found.map((f, i) => [orders[i]!, f])
    for (const [{ order, handler }, params] of more) merged.push([order, [handler, params]])
    merged.sort((a, b) => a[0] - b[0])
    return [merged.map(([, f]) => f)]
  }
}

const matchRoute = <T>(route: Route<T>, parts: ReadonlyArray<string>): Params | undefined => {
  for (const [i, text] of route.literals) if (parts[i] !== text) return undefined
  const params: Params = {}
  for (const [i, name] of route.params) {
    const part = parts[i]!
    // As Hono's routers: a parameter never matches an empty segment.
    if (part === "") return undefined
    params[name] = part
  }
  return params
}
