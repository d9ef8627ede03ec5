// `npm run docs`: regenerates the README's route tables from what the app routes (`-- --check`: exit 1 when stale).
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { currentSection, readmeWith, readReadme, renderRoutes, routedPaths } from "./docs/routes.js"

const file = fileURLToPath(new URL("../README.md", import.meta.url))
const readme = readReadme(file)
const section = renderRoutes(await routedPaths())
if (process.argv.includes("--check")) {
  if (currentSection(readme) !== section) {
    process.stderr.write("README.md's route tables are stale: run npm run docs\n")
    process.exit(1)
  }
} else if (currentSection(readme) !== section) {
  writeFileSync(file, readmeWith(readme, section))
  process.stdout.write("README.md: route tables regenerated\n")
} else process.stdout.write("README.md: route tables up to date\n")
