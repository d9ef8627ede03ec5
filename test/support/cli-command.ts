// How the tests start `custody-sim`: node's arguments before the command's own. The built command
// (dist/src/cli.js) when dist/ is a build of the checkout as it is (its stamp matches, scripts/build-stamp.ts), as
// in CI after `npm ci` built it; else the sources through tsx, which start a second or more slower per process. A
// stale dist/ is never run. Absolute paths: some commands run in other directories.
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { distIsFresh } from "../../scripts/build-stamp.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

export const CLI: ReadonlyArray<string> = distIsFresh()
  ? [join(ROOT, "dist", "src", "cli.js")]
  : ["--import", pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href, join(ROOT, "src", "cli.ts")]
