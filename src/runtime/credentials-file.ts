// Saves the credentials created at first start beside the data (the passphrase is not recoverable later).
import { chmodSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { CreatedCredentials } from "./bootstrap.js"

export const writeCredentialsFile = (dataDir: string, adminToken: string, credentials: ReadonlyArray<CreatedCredentials>): string => {
  const file = join(dataDir, "credentials.json")
  writeFileSync(file, JSON.stringify({ adminToken, apiKeys: credentials }, null, 2) + "\n", { mode: 0o600 })
  // The mode above only applies to a new file: one left from an earlier start keeps its own.
  chmodSync(file, 0o600)
  return file
}
