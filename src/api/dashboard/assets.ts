// The dashboard's built files (npm run build:ui writes them to dist/ui of the package).
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { UI_DIR } from "../../adapters/package-root.js"

export { UI_DIR }

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
}

/** A built file by its name under dist/ui (no directories: names are checked by the caller). */
export const uiFile = async (name: string): Promise<{ body: Uint8Array; type: string } | undefined> => {
  const ext = name.slice(name.lastIndexOf("."))
  const type = TYPES[ext]
  if (type === undefined) return undefined
  try {
    return { body: await readFile(join(UI_DIR, name)), type }
  } catch {
    return undefined
  }
}
