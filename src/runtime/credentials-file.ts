// Saves the credentials created at first start beside the data (the passphrase is not recoverable later).
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { CreatedCredentials } from "./bootstrap.js"

export const writeCredentialsFile = (dataDir: string, adminToken: string, credentials: ReadonlyArray<CreatedCredentials>): string => {
  const file = join(dataDir, "credentials.json")
  writeFileSync(file, JSON.stringify({ adminToken, apiKeys: credentials }, null, 2) + "\n", { mode: 0o600 })
  return file
}
