// Builds the dashboard's files before any test runs: the browser tests load them, and a clean clone has none.
import { buildUi } from "../scripts/build-ui.js"

export default async function setup(): Promise<void> {
  await buildUi()
}
