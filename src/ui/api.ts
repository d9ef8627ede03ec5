// The page's calls: the control plane with the session cookie (sent by the browser) and, for changes, the CSRF token.
export class Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

let csrf = ""
export const setCsrf = (token: string) => {
  csrf = token
}

const fail = async (res: Response): Promise<never> => {
  let code = `http_${res.status}`
  let message = res.statusText
  try {
    const body = (await res.json()) as {
      error?: { code?: string; message?: string; details?: Array<{ attribute: string; message: string }> }
    }
    if (body.error?.code !== undefined) code = body.error.code
    if (body.error?.message !== undefined) message = body.error.message
    const details = body.error?.details ?? []
    if (details.length > 0) message += ` (${details.map((d) => `${d.attribute} ${d.message}`).join("; ")})`
  } catch {
    // not JSON: the status says enough
  }
  throw new Failure(res.status, code, message)
}

/** `asOf` is a log position (null: now), passed as the control plane's asOf=position:<n>. */
export const withAsOf = (path: string, asOf: number | null): string =>
  asOf === null ? path : `${path}${path.includes("?") ? "&" : "?"}asOf=position:${asOf}`

export const get = async <T>(path: string, signal?: AbortSignal): Promise<T> => {
  const res = await fetch(path, { credentials: "same-origin", ...(signal !== undefined ? { signal } : {}) })
  if (!res.ok) return fail(res)
  return (await res.json()) as T
}

export const send = async <T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> => {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  if (!res.ok) return fail(res)
  return (await res.json()) as T
}

export const session = () => get<{ authenticated: boolean; csrfToken?: string }>("/ui/session")
export const login = async (token: string) => {
  const res = await fetch("/ui/session", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
  })
  if (!res.ok) return fail(res)
  return (await res.json()) as { authenticated: boolean; csrfToken: string }
}
export const logout = () => send<{ authenticated: boolean }>("DELETE", "/ui/session")
