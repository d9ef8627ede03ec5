// The README's property-testing example is the code of readme-example.props.test.ts (so it runs on every build).
import { it } from "vitest"
import { expectReadmeShows } from "../support/readme-code.js"

it("shows readme-example.props.test.ts verbatim, importing the package's testing entry point", () => {
  expectReadmeShows(new URL("./readme-example.props.test.ts", import.meta.url))
})
