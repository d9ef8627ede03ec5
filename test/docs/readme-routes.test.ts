// The README's route tables list exactly what the server routes (regenerate with `npm run docs`).
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"
import { currentSection, readReadme, renderRoutes, routedPaths } from "../../scripts/docs/routes.js"

it("the README's REST and control-plane tables are the ones the app's routes render", async () => {
  const readme = readReadme(fileURLToPath(new URL("../../README.md", import.meta.url)))
  const routes = await routedPaths()
  expect(routes.length).toBeGreaterThan(40)
  expect(currentSection(readme)).toBe(renderRoutes(routes))
  for (const r of routes) expect(currentSection(readme)).toContain(`| ${r.method} | \`${r.path.replace(/:(\w+)/g, "{$1}")}\` |`)
})
