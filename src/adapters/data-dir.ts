// The data directory holds API secrets (in the log and credentials.json): only its owner may read it.
import { chmodSync, mkdirSync, readdirSync } from "node:fs"
import { join } from "node:path"

/** Creates the directory if needed and sets it to 0700 and every file in it to 0600, on every start. */
export const secureDataDir = (dir: string): void => {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isFile()) chmodSync(join(dir, entry.name), 0o600)
}
