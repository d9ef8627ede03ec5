// The dashboard's built files (npm run build:ui writes them to dist/ui of the package), found from this module's
// place whether it runs from the sources or from dist/.
import { existsSync, readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const packageRoot = (): string | undefined => {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, "package.json")
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "custody-sim") return dir
      } catch {
        // not ours: keep looking
      }
    }
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

export const UI_DIR = join(packageRoot() ?? ".", "dist", "ui")

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
