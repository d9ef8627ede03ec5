// Headless Chromium for the dashboard's tests: Debian's chromium (never a download), a fresh profile each launch.
// No browser means a failed test, never a skipped one.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type BrowserContext, type Page } from "playwright-core"

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const SCREENSHOTS = join(import.meta.dirname, "..", "..", "screenshots")

export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  readonly shot: (name: string) => Promise<void>
  readonly close: () => Promise<void>
}

export const launchBrowser = async (viewport = { width: 1280, height: 900 }): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`)
  const profile = mkdtempSync(join(tmpdir(), "custody-sim-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  })
  const page = context.pages()[0] ?? (await context.newPage())
  mkdirSync(SCREENSHOTS, { recursive: true })
  return {
    context,
    page,
    shot: async (name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
    },
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
