// The package's own directory, found from this module's place whether it runs from the sources or from dist/:
// built files (the dashboard, the audit report's chart script, the OpenAPI examples) live under its dist/.
import { existsSync, readFileSync } from "node:fs"
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

/** Where `npm run build:ui` writes the dashboard and the audit report's chart script. */
export const UI_DIR = join(packageRoot() ?? ".", "dist", "ui")

/** Where `npm run build:openapi` writes the documents and the examples of a scripted run (examples.json). */
export const OPENAPI_DIR = join(packageRoot() ?? ".", "dist", "openapi")

/** Installed globally (`npm install -g`: `<prefix>/lib/node_modules`, or `npm/node_modules` on Windows), where the bare command is on the PATH. */
export const GLOBAL_INSTALL = /[\\/](lib|npm)[\\/]node_modules[\\/]custody-sim$/.test(packageRoot() ?? "")
