// Builds the dashboard (src/ui) into dist/ui: one minified script and one stylesheet, no network at run time.
import { build } from "esbuild"
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>custody-sim</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/assets/app.css">
<script type="module" src="/ui/assets/app.js"></script>
</head>
<body><div id="app"></div></body>
</html>
`

export const buildUi = async (outDir = join(root, "dist", "ui")): Promise<{ bytes: number }> => {
  mkdirSync(join(outDir, "assets"), { recursive: true })
  const r = await build({
    entryPoints: { app: join(root, "src", "ui", "main.tsx"), audit: join(root, "src", "ui", "audit-charts.ts") },
    outdir: join(outDir, "assets"),
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
  })
  writeFileSync(join(outDir, "index.html"), page)
  // The API reference's renderer (/docs), served from the package as the dashboard's files are.
  copyFileSync(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"), join(outDir, "assets", "redoc.standalone.js"))
  return {
    bytes: Object.entries(r.metafile.outputs)
      .filter(([f]) => !f.endsWith(".map"))
      .reduce((a, [, o]) => a + o.bytes, 0),
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { bytes } = await buildUi()
  console.log(`dashboard built: dist/ui (${(bytes / 1024).toFixed(1)} KiB)`)
}
