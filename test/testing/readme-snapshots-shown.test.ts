// The README's snapshot example is the code of readme-snapshots.test.ts (so it runs on every build).
import { it } from "vitest"
import { expectReadmeShows } from "../support/readme-code.js"

it("shows readme-snapshots.test.ts verbatim, importing the package's testing entry point", () => {
  expectReadmeShows(new URL("./readme-snapshots.test.ts", import.meta.url))
})
