// docs/faults.md's worked example is the code of faults-example.test.ts (so it runs on every build).
import { it } from "vitest"
import { expectReadmeShows } from "../support/readme-code.js"

it("shows faults-example.test.ts verbatim, importing the package's testing entry point", () => {
  expectReadmeShows(new URL("./faults-example.test.ts", import.meta.url), "docs/faults.md")
})
