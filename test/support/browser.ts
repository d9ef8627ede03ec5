// The dashboard tests' browser: headless Chromium (scripts/chromium.ts) and screenshots under screenshots/
// (git-ignored). No browser means a failed test, never a skipped one.
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { launchChromium } from "../../scripts/chromium.js"

export const SCREENSHOTS = join(import.meta.dirname, "..", "..", "screenshots")

export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  readonly shot: (name: string) => Promise<void>
  readonly close: () => Promise<void>
}

export const launchBrowser = async (viewport?: { width: number; height: number }): Promise<Browser> => {
  const b = await launchChromium(viewport)
  mkdirSync(SCREENSHOTS, { recursive: true })
  return {
    ...b,
    shot: async (name) => {
      await b.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
    },
  }
}
