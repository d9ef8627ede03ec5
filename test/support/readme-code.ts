// The README's code examples are test files of the suite: this checks that the README shows one verbatim.
import { readFileSync } from "node:fs"
import { expect } from "vitest"

/** The test file's code without its `//` header lines, importing the package instead of the source. */
export const expectReadmeShows = (testFile: URL) => {
  const code = readFileSync(testFile, "utf8")
    .split("\n")
    .filter((line) => !line.startsWith("//"))
    .join("\n")
    .replace('from "../../src/testing.js"', 'from "custody-sim/testing"')
    .trim()
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.trim())
  expect(blocks).toContain(code)
}
