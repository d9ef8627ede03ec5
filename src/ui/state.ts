// What every view shares: the as-of position (null = live), a refresh counter bumped by live updates and actions,
// the action runner that reports errors in the page, and the data hook that refetches when any of these change.
import { createContext } from "preact"
import { useContext, useLayoutEffect, useRef, useState } from "preact/hooks"
import { Failure, get, withAsOf } from "./api.js"

export interface Shared {
  readonly asOf: number | null
  readonly refresh: number
  /** Runs an action: its error is shown in the page; a success refreshes every view. */
  readonly act: (label: string, action: () => Promise<unknown>) => Promise<boolean>
  readonly navigate: (hash: string) => void
}

export const SharedContext = createContext<Shared>({ asOf: null, refresh: 0, act: async () => false, navigate: () => {} })
export const useShared = () => useContext(SharedContext)

export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: Failure | undefined
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** GET `path` as of the shared position; refetched when the position, the refresh counter or `path` change. */
export const useData = <T>(path: string | null, options: { asOf?: boolean } = {}): Loaded<T> => {
  const { asOf, refresh } = useShared()
  const [state, setState] = useState<Loaded<T>>({ data: undefined, error: undefined })
  const url = path === null ? null : options.asOf === false ? path : withAsOf(path, asOf)
  const latest = useRef(0)
  // A layout effect: the read starts as the render commits, not a frame later (a timeline drag waits for it).
  useLayoutEffect(() => {
    if (url === null) return
    const ticket = ++latest.current
    const abort = new AbortController()
    get<T>(url, abort.signal).then(
      (data) => {
        // The same answer again (a refresh that changed nothing for this view) keeps the object it had, so that
        // what is built from it (a chart, its cursor) stays as it is.
        if (ticket === latest.current)
          setState((s) => (s.error === undefined && s.data !== undefined && sameJson(s.data, data) ? s : { data, error: undefined }))
      },
      (error: unknown) => {
        if (ticket === latest.current && !(error instanceof DOMException && error.name === "AbortError"))
          setState((s) => ({ data: s.data, error: error instanceof Failure ? error : new Failure(0, "network", String(error)) }))
      },
    )
    return () => abort.abort()
  }, [url, refresh])
  return state
}

export const formatTime = (ms: number | null | undefined) =>
  ms === null || ms === undefined
    ? "—"
    : new Date(ms)
        .toISOString()
        .replace("T", " ")
        .replace(/\.000Z$/, "Z")
