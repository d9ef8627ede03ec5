// The README's property-testing example is the code of readme-example.props.test.ts (so it runs on every build).
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8")

it("shows readme-example.props.test.ts verbatim, importing the package's testing entry point", () => {
  const code = read("./readme-example.props.test.ts")
    .split("\n")
    .filter((line) => !line.startsWith("//"))
    .join("\n")
    .replace('from "../../src/testing.js"', 'from "custody-sim/testing"')
    .trim()
  const blocks = [...read("../../README.md").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.trim())
  expect(blocks).toContain(code)
})
