// Every file the docs cite exists: relative links, `src/…`-like paths (src, docs, test, scripts) and the source
// files named in backticks, in README.md, ARCHITECTURE.md and docs/*.md. A file renamed or removed fails here.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

const walk = (dir: string): Array<string> =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name)
    return statSync(join(ROOT, path)).isDirectory() ? walk(path) : [path]
  })

const files = [...["src", "docs", "test", "scripts"].flatMap(walk), ...readdirSync(ROOT).filter((n) => statSync(join(ROOT, n)).isFile())]
const docs = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((n) => n.endsWith(".md"))
    .map((n) => `docs/${n}`),
]

/** Placeholders and outputs, not files of the repository: `<data-dir>/…`, `routes/<group>.ts`, `dist/…`, globs. */
const placeholder = (ref: string) => /[<>*{}…]/.test(ref) || ref.startsWith("dist/") || ref.includes("node_modules")

/** What a doc cites: [text](relative), a path under src/ docs/ test/ scripts/, or a backticked source file. */
const citations = (doc: string, text: string): Array<{ ref: string; resolved: ReadonlyArray<string> }> => {
  const out: Array<{ ref: string; resolved: ReadonlyArray<string> }> = []
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!.split("#")[0]!
    if (target === "" || /^[a-z]+:/i.test(target)) continue
    out.push({ ref: target, resolved: [relative(ROOT, join(ROOT, dirname(doc), target))] })
  }
  // A module may be named without its extension (`src/projections/read-models`).
  for (const m of text.matchAll(/(?<![\w./@-])((?:src|docs|test|scripts)\/[\w./-]*[\w-])/g))
    if (!placeholder(m[1]!)) out.push({ ref: m[1]!, resolved: [m[1]!, `${m[1]!}.ts`] })
  // ARCHITECTURE.md names files within their layer (`api/router.ts`, `draft.ts`): any file of that name or tail.
  for (const m of text.matchAll(/`([\w./-]+\.(?:ts|md|cjs|mjs|jsonc))`/g)) {
    const ref = m[1]!
    if (placeholder(ref) || ref.startsWith("src/") || ref.startsWith("docs/") || ref.startsWith("test/") || ref.startsWith("scripts/"))
      continue
    out.push({ ref, resolved: files.filter((f) => f === ref || f.endsWith(`/${ref}`)) })
  }
  return out
}

it("every file README.md, ARCHITECTURE.md and docs/*.md cite exists", () => {
  const missing: Array<string> = []
  let checked = 0
  for (const doc of docs) {
    for (const c of citations(doc, readFileSync(join(ROOT, doc), "utf8"))) {
      checked++
      if (!c.resolved.some((p) => existsSync(join(ROOT, p)))) missing.push(`${doc}: ${c.ref}`)
    }
  }
  expect(checked).toBeGreaterThan(100)
  expect(missing).toEqual([])
})

it("finds a citation of a file that is not there (the check can fail)", () => {
  const cited = citations("docs/x.md", "see src/no/such-file.ts, [this](../NOPE.md) and `nowhere-at-all.ts`")
  expect(cited.map((c) => [c.ref, c.resolved.some((p) => existsSync(join(ROOT, p)))])).toEqual([
    ["../NOPE.md", false],
    ["src/no/such-file.ts", false],
    ["nowhere-at-all.ts", false],
  ])
})
