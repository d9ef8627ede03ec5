// The build's stamp: a digest of everything `npm run build` reads, written to dist/ as its last step. A dist/ whose
// stamp matches the checkout's files was built from them; the test suite then runs the built command and packs the
// built tree (test/support/cli-command.ts, test/package/pack.test.ts), and otherwise runs the sources.
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const STAMP = join(root, "dist", "build-inputs.sha256")

// The sources (code, dashboard) and what tells the build how to build them: the scripts it runs, its compiler
// settings, the scenario the documents' examples come from, and the package files (its scripts; the lock fixes the
// bundled dashboard's libraries).
const INPUTS = [
  "src",
  "scripts/build-ui.ts",
  "scripts/write-openapi.ts",
  "scripts/openapi-examples",
  "scripts/build-stamp.ts",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
]

const filesUnder = (path: string): Array<string> =>
  existsSync(path) && statSync(path).isDirectory()
    ? readdirSync(path)
        .sort()
        .flatMap((name) => filesUnder(join(path, name)))
    : [path]

/** The digest of the build's inputs as they are now: each file's path and bytes, in path order. */
const buildInputsDigest = (): string => {
  const hash = createHash("sha256")
  for (const file of INPUTS.flatMap((p) => filesUnder(join(root, p)))) {
    hash.update(`${relative(root, file)}\0`)
    hash.update(existsSync(file) ? readFileSync(file) : "(none)")
    hash.update("\0")
  }
  return hash.digest("hex")
}

/** Whether dist/ is a complete build of the checkout as it is now (its stamp is written last, after every step). */
export const distIsFresh = (): boolean => existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === buildInputsDigest()

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(STAMP, `${buildInputsDigest()}\n`)
  console.log("build stamp written: dist/build-inputs.sha256")
}
