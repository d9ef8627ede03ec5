// `custody-sim call`, `sign` and `credentials`: requests signed with the data dir's credentials (or given ones, or
// those of a world on the server: --world).
import { signRequest, type Credentials } from "../client/signing.js"
import { credentialsPath, readCredentialsFile, type CredentialsFile } from "../workspace/credentials-file.js"
import { CliFailure, UsageError } from "./failure.js"
import { send } from "./call-send.js"
import { worldCredentials } from "./call-world.js"

interface CredentialOptions {
  readonly dataDir: string
  readonly key?: string
  readonly secret?: string
  readonly passphrase?: string
  readonly url?: string
  readonly apiVersion?: string
  /** A world of the server (docs/worlds.md): its credentials, read with the server's admin token. */
  readonly world?: string
  /** The server's admin token for --world (default: credentials.json's). */
  readonly adminToken?: string
}

const DEFAULT_URL = "http://127.0.0.1:8080"

const savedFile = (dataDir: string): CredentialsFile | undefined => {
  try {
    return readCredentialsFile(dataDir)
  } catch (e) {
    throw new CliFailure(`cannot read ${credentialsPath(dataDir)}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** The simulator's base URL, checked once: an http:// URL without a trailing slash. */
const baseUrl = (raw: string): string => {
  let parsed: URL | undefined
  try {
    parsed = new URL(raw)
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || parsed.protocol !== "http:")
    throw new UsageError(`--url must be an http:// URL such as ${DEFAULT_URL}, not ${JSON.stringify(raw)}`)
  return raw.replace(/\/$/, "")
}

/** The world's key (the given or its first), read from the server with its admin token, given or saved. */
const worldKey = async (o: CredentialOptions & { readonly world: string }): Promise<{ credentials: Credentials; url: string }> => {
  const saved = o.adminToken !== undefined && o.url !== undefined ? undefined : savedFile(o.dataDir)
  const url = baseUrl(o.url ?? saved?.url ?? DEFAULT_URL)
  const adminToken = o.adminToken ?? saved?.adminToken
  if (adminToken === undefined)
    throw new CliFailure(`--world needs the server's admin token: pass --admin-token (${credentialsPath(o.dataDir)} does not exist)`)
  if (o.key !== undefined && o.secret !== undefined && o.passphrase !== undefined)
    return { credentials: { key: o.key, secret: o.secret, passphrase: o.passphrase }, url }
  const found = await worldCredentials(url, adminToken, o.world, o.key)
  return { credentials: { ...found, secret: o.secret ?? found.secret, passphrase: o.passphrase ?? found.passphrase }, url }
}

/**
 * The key to sign with: all three parts given, or a world's (--world), or the given (or first) key of
 * credentials.json with its parts.
 */
const resolveCredentials = async (o: CredentialOptions): Promise<{ credentials: Credentials; url: string }> => {
  if (o.world !== undefined) return worldKey({ ...o, world: o.world })
  const saved = o.secret !== undefined && o.passphrase !== undefined && o.key !== undefined ? undefined : savedFile(o.dataDir)
  const url = baseUrl(o.url ?? saved?.url ?? DEFAULT_URL)
  if (o.key !== undefined && o.secret !== undefined && o.passphrase !== undefined)
    return { credentials: { key: o.key, secret: o.secret, passphrase: o.passphrase }, url }
  if (saved === undefined)
    throw new CliFailure(
      `no credentials: ${credentialsPath(o.dataDir)} does not exist (start custody-sim serve with this --data-dir, or pass --key, --secret and --passphrase)`,
    )
  const found = o.key === undefined ? saved.apiKeys[0] : saved.apiKeys.find((k) => k.key === o.key)
  if (found === undefined)
    throw new CliFailure(
      o.key === undefined
        ? `${credentialsPath(o.dataDir)} holds no API key`
        : `API key ${o.key} is not in ${credentialsPath(o.dataDir)}: pass its --secret and --passphrase`,
    )
  return { credentials: { key: found.key, secret: o.secret ?? found.secret, passphrase: o.passphrase ?? found.passphrase }, url }
}

const bodyOf = (data: string | undefined): string => {
  if (data === undefined) return ""
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch (e) {
    throw new UsageError(`--data is not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  const wrapped = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && "data" in parsed
  return wrapped ? data : JSON.stringify({ data: { item: parsed } })
}

const withQuery = (path: string, query: ReadonlyArray<string>): string => {
  if (!path.startsWith("/")) throw new UsageError(`the path must begin with /, not ${path}`)
  if (query.length === 0) return path
  const params = new URLSearchParams()
  for (const kv of query) {
    const eq = kv.indexOf("=")
    if (eq <= 0) throw new UsageError(`--query takes key=value, not ${kv}`)
    params.append(kv.slice(0, eq), kv.slice(eq + 1))
  }
  return `${path}${path.includes("?") ? "&" : "?"}${params.toString()}`
}

export const call = async (
  method: string,
  path: string,
  o: CredentialOptions & { readonly data?: string; readonly query?: ReadonlyArray<string>; readonly asOf?: string; readonly raw?: boolean },
): Promise<number> => {
  const m = method.toUpperCase()
  if (!["GET", "POST", "PUT", "DELETE", "PATCH"].includes(m)) throw new UsageError(`unknown method ${method}: GET, POST or PUT`)
  const target = withQuery(path, o.query ?? [])
  const body = m === "GET" ? "" : bodyOf(o.data ?? "{}")
  const { credentials, url } = await resolveCredentials(o)
  const headers = signRequest(credentials, {
    method: m,
    url: target,
    body,
    ...(o.apiVersion !== undefined ? { apiVersion: o.apiVersion } : {}),
  })
  if (o.asOf !== undefined) headers["x-sim-as-of"] = o.asOf
  let res: { status: number; text: string }
  try {
    res = await send(url + target, m, headers, body)
  } catch (e) {
    const code = (e as { code?: string }).code
    throw new CliFailure(
      `cannot reach ${url}${code === "ECONNREFUSED" ? ": nothing listens there (is custody-sim serve running? pass --url)" : `: ${code ?? (e instanceof Error ? e.message : String(e))}`}`,
    )
  }
  const text = res.text
  let out = text
  if (process.stdout.isTTY === true && o.raw !== true) {
    try {
      out = JSON.stringify(JSON.parse(text), null, 2)
    } catch {
      // not JSON: as received
    }
  }
  process.stdout.write(out.endsWith("\n") ? out : `${out}\n`)
  if (res.status >= 200 && res.status < 300) return 0
  process.stderr.write(`HTTP ${res.status}\n`)
  return 1
}

export const sign = async (
  o: CredentialOptions & { readonly method: string; readonly path: string; readonly body: string },
): Promise<number> => {
  const method = o.method.toUpperCase()
  const { credentials, url } = await resolveCredentials(o)
  const headers = signRequest(credentials, {
    method,
    url: o.path,
    body: o.body,
    ...(o.apiVersion !== undefined ? { apiVersion: o.apiVersion } : {}),
  })
  for (const [k, v] of Object.entries(headers)) process.stdout.write(`${k}: ${v}\n`)
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const parts = ["curl", "-sS", "-X", method, ...Object.entries(headers).flatMap(([k, v]) => ["-H", quote(`${k}: ${v}`)])]
  if (o.body.length > 0) parts.push("--data-raw", quote(o.body))
  parts.push(quote(url + o.path))
  process.stdout.write(`${parts.join(" ")}\n`)
  process.stderr.write("(the signature holds for 30 s; custody-sim call signs and sends in one step)\n")
  return 0
}

export const credentials = async (o: { readonly dataDir: string; readonly json?: boolean }): Promise<number> => {
  const saved = savedFile(o.dataDir)
  if (saved === undefined)
    throw new CliFailure(`${credentialsPath(o.dataDir)} does not exist: custody-sim serve --data-dir ${o.dataDir} writes it at start`)
  if (o.json === true) {
    process.stdout.write(`${JSON.stringify(saved, null, 2)}\n`)
    return 0
  }
  const lines = [`admin token: ${saved.adminToken}`]
  for (const c of saved.apiKeys) lines.push(`api key: ${c.key}`, `api secret: ${c.secret}`, `api passphrase: ${c.passphrase}`)
  for (const v of saved.vaults ?? []) lines.push(`vault ${v.type}: ${v.id} (${v.name})`)
  if (saved.url !== undefined) lines.push(`url: ${saved.url}`)
  process.stdout.write(`${lines.join("\n")}\n`)
  return 0
}
