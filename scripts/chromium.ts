// Headless Chromium for the dashboard's tests and benchmark: Debian's chromium (never a download), a fresh profile
// each launch, the flags that keep it off the network.
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type BrowserContext, type Page } from "playwright-core"

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

export interface Chromium {
  readonly context: BrowserContext
  readonly page: Page
  readonly close: () => Promise<void>
}

export const launchChromium = async (viewport = { width: 1280, height: 900 }): Promise<Chromium> => {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`)
  const profile = mkdtempSync(join(tmpdir(), "custody-sim-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  })
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}
