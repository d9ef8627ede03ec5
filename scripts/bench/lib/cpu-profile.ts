// CPU profiles of the server under load (scripts/bench/profile-*.ts): a summary of the top frames, and a run of
// the compiled copy. Under tsx every frame is nameless (esbuild's keepNames wraps each function), so src/ and
// scripts/ are compiled with tsc into a temporary directory first and that copy runs with plain node.
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
export interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** A frame's name in a summary: its function, its file from node_modules/, src/ or scripts/, and its line. */
export const frameKey = (f: ProfileNode["callFrame"]): string =>
  `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*?\/(node_modules|src|scripts)\//, "$1/")}${f.url === "" ? "" : `:${f.lineNumber + 1}`}`

/** Self and inclusive time per frame (function, file, line), as shares of the samples. */
export const summarise = (p: Profile, count: number): string => {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const time = new Map<number, number>()
  p.samples.forEach((id, i) => {
    time.set(id, (time.get(id) ?? 0) + (p.timeDeltas[i] ?? 0))
  })
  const total = [...time.values()].reduce((a, b) => a + b, 0)
  const key = (n: ProfileNode) => frameKey(n.callFrame)
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  for (const [id, t] of time) {
    const k = key(byId.get(id)!)
    self.set(k, (self.get(k) ?? 0) + t)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const ck = key(byId.get(cur)!)
      if (!seen.has(ck)) inclusive.set(ck, (inclusive.get(ck) ?? 0) + t)
      seen.add(ck)
    }
  }
  const rows = (m: Map<string, number>, filter: (k: string) => boolean) =>
    [...m]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(6)}%  ${k}`)
      .join("\n")
  return `self time (share of ${(total / 1000).toFixed(0)} ms sampled):\n${rows(self, () => true)}\n\ninclusive time, src/ only:\n${rows(inclusive, (k) => k.includes(" src/"))}`
}

/** Compiles src/ and scripts/ and runs `scripts/bench/<script>.js --child <args>` (an --out path made absolute). */
export const runCompiled = (script: string, args: ReadonlyArray<string>, out: string): void => {
  const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)))
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-profile-"))
  try {
    const config = join(dir, "tsconfig.json")
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(root, "tsconfig.json"),
        compilerOptions: {
          noEmit: false,
          noCheck: true,
          sourceMap: false,
          declaration: false,
          outDir: join(dir, "out"),
          rootDir: root,
          typeRoots: [join(root, "node_modules/@types")],
        },
        include: [join(root, "src"), join(root, "scripts")],
        exclude: [join(root, "src/ui")],
      }),
    )
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", config], { stdio: "inherit" })
    symlinkSync(join(root, "node_modules"), join(dir, "out/node_modules"), "dir")
    writeFileSync(join(dir, "out/package.json"), readFileSync(join(root, "package.json")))
    const compiled = join(dir, `out/scripts/bench/${script}.js`)
    const r = spawnSync(process.execPath, [compiled, "--child", ...args.map((a) => (a === out && out !== "" ? resolve(out) : a))], {
      stdio: "inherit",
    })
    process.exitCode = r.status ?? 1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
