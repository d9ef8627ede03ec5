// <data-dir>/credentials.json: the credentials created at first start (the passphrase is not recoverable later),
// with the vault ids and the URL of the last start, for `custody-sim call`, `sign` and `credentials`.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { CreatedCredentials } from "./bootstrap.js"

export interface CredentialsFile {
  readonly adminToken: string
  readonly apiKeys: ReadonlyArray<CreatedCredentials>
  readonly vaults?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly type: string }>
  /** Where `custody-sim serve` last listened with this data directory. */
  readonly url?: string
}

export const credentialsPath = (dataDir: string): string => join(dataDir, "credentials.json")

export const readCredentialsFile = (dataDir: string): CredentialsFile | undefined => {
  const file = credentialsPath(dataDir)
  if (!existsSync(file)) return undefined
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<CredentialsFile>
  if (typeof parsed.adminToken !== "string" || !Array.isArray(parsed.apiKeys))
    throw new Error(`${file} is not a custody-sim credentials file`)
  return parsed as CredentialsFile
}

export const writeCredentialsFile = (dataDir: string, content: CredentialsFile): string => {
  const file = credentialsPath(dataDir)
  writeFileSync(file, JSON.stringify(content, null, 2) + "\n", { mode: 0o600 })
  // The mode above only applies to a new file: one left from an earlier start keeps its own.
  chmodSync(file, 0o600)
  return file
}
