// `custody-sim call --world <id>` (and `sign --world`): a world's credentials (docs/worlds.md), read from the
// server's GET /_sim/worlds/{id} with the server's admin token, so that a request is signed as that world's.
import type { Credentials } from "../client/signing.js"
import { CliFailure } from "./failure.js"
import { send } from "./call-send.js"

interface WorldKey extends Credentials {
  readonly apiVersion: string
}

interface WorldDetails {
  readonly id: string
  readonly apiKeys: ReadonlyArray<WorldKey>
}

const refusal = (status: number, text: string): string => {
  try {
    const error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error
    if (error?.code !== undefined) return `${error.code}: ${error.message ?? ""}`.trim()
  } catch {
    // not JSON: the status says it
  }
  return `HTTP ${status}`
}

/** The world's key to sign with: `key` when given (it must be one of the world's), else its first. */
export const worldCredentials = async (url: string, adminToken: string, world: string, key: string | undefined): Promise<Credentials> => {
  let res: { status: number; text: string }
  try {
    res = await send(`${url}/_sim/worlds/${encodeURIComponent(world)}`, "GET", { authorization: `Bearer ${adminToken}` }, "")
  } catch (e) {
    throw new CliFailure(`cannot reach ${url} to find world ${world}: ${(e as { code?: string }).code ?? String(e)}`)
  }
  if (res.status === 401 || res.status === 403)
    throw new CliFailure(
      `${url} refused the admin token to read world ${world} (${refusal(res.status, res.text)}): --world needs the server's admin token (--admin-token)`,
    )
  if (res.status !== 200) throw new CliFailure(`world ${world} on ${url}: ${refusal(res.status, res.text)}`)
  const details = JSON.parse(res.text) as WorldDetails
  const found = key === undefined ? details.apiKeys[0] : details.apiKeys.find((k) => k.key === key)
  if (found === undefined)
    throw new CliFailure(
      key === undefined
        ? `world ${world} has no API key it was created with`
        : `API key ${key} is not one world ${world} was created with: pass its --secret and --passphrase`,
    )
  return { key: found.key, secret: found.secret, passphrase: found.passphrase }
}
