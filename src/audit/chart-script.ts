// The audit report's chart script and its stylesheet (uPlot and the drawing code, built by `npm run build:ui` into
// dist/ui/assets), inlined so that the report stays one self-contained page wherever it is saved.
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { UI_DIR } from "../adapters/package-root.js"

export interface ChartScript {
  readonly js: string
  readonly css: string
  /** The script's CSP source (`'sha256-…'`): a served report allows this script and no other. */
  readonly cspSource: string
}

let cached: ChartScript | null | undefined

/** The built files, or null when the package has not been built (the report then says so instead of drawing). */
export const chartScript = (): ChartScript | null => {
  if (cached !== undefined) return cached
  try {
    const js = readFileSync(join(UI_DIR, "assets", "audit.js"), "utf8").replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n")
    const css = readFileSync(join(UI_DIR, "assets", "audit.css"), "utf8").replace(/\/\*# sourceMappingURL=.*\*\/\s*$/, "")
    // Inside an inline <script>, "</script" would end it early; "<\/script" means the same to JavaScript.
    const inline = js.replace(/<\/script/gi, "<\\/script")
    cached = { js: inline, css, cspSource: `'sha256-${createHash("sha256").update(inline).digest("base64")}'` }
  } catch {
    cached = null
  }
  return cached
}
