// The README's code examples are test files of the suite: this checks that the README shows one verbatim.
import { readFileSync } from "node:fs"
import { expect } from "vitest"

/** The test file's code without its `//` header lines, importing the package instead of the source. */
export const expectReadmeShows = (testFile: URL, doc = "README.md") => {
  const code = readFileSync(testFile, "utf8")
    .split("\n")
    .filter((line) => !line.startsWith("//"))
    .join("\n")
    .replace('from "../../src/testing.js"', 'from "custody-sim/testing"')
    .trim()
  const readme = readFileSync(new URL(`../../${doc}`, import.meta.url), "utf8")
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.trim())
  expect(blocks).toContain(code)
}

/** The `sh` blocks of a README section (from its heading to the next heading of its level or above), in order. */
export const readmeShell = (heading: string): ReadonlyArray<string> => {
  const lines = readFileSync(new URL("../../README.md", import.meta.url), "utf8").split("\n")
  const level = /^#+/.exec(heading)![0].length
  const start = lines.indexOf(heading)
  if (start < 0) throw new Error(`README.md has no heading ${heading}`)
  const blocks: Array<string> = []
  let block: Array<string> | undefined
  let fenced = false
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("```")) {
      fenced = !fenced
      if (fenced && line === "```sh") block = []
      else if (!fenced && block !== undefined) {
        blocks.push(block.join("\n"))
        block = undefined
      }
      continue
    }
    if (!fenced && new RegExp(`^#{1,${level}} `).test(line)) break
    block?.push(line)
  }
  return blocks
}
