// Fingerprint of the read-model code: a hash of the source of read-models and of every module it imports,
// transitively (the folds, and the domain code they call). Any change to them gives another fingerprint, so a
// checkpoint written by other code is never loaded: its models would not be what this code folds.
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { modelClasses } from "../projections/read-models.js"

const root = new URL(import.meta.url.endsWith(".ts") ? "../projections/read-models.ts" : "../projections/read-models.js", import.meta.url)

// Relative imports only (packages are pinned by the lock file); type-only imports are included, harmlessly.
const importPattern = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g

const sourceOf = (url: URL): { file: string; text: string } | undefined => {
  const file = fileURLToPath(url)
  // Sources import "./x.js" for "./x.ts".
  for (const candidate of [file, file.replace(/\.js$/, ".ts")])
    if (existsSync(candidate)) return { file: candidate, text: readFileSync(candidate, "utf8") }
  return undefined
}

let cached: string | undefined

export const modelCodeFingerprint = (): string => {
  if (cached !== undefined) return cached
  const seen = new Set<string>()
  const hash = createHash("sha256")
  hash.update(`classes:${[...modelClasses.keys()].join(",")}\n`)
  const visit = (url: URL) => {
    const source = sourceOf(url)
    if (source === undefined || seen.has(source.file)) return
    seen.add(source.file)
    hash.update(`${source.file.slice(source.file.lastIndexOf("/src/"))}\n${source.text}\n`)
    for (const m of source.text.matchAll(importPattern)) visit(new URL(m[1]!, url))
  }
  visit(root)
  if (seen.size === 0) throw new Error("the read-model sources are missing: no fingerprint for checkpoints")
  cached = hash.digest("base64url")
  return cached
}
