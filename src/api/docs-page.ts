// The API reference at /docs (the newest version the server speaks) and /docs/{version}: each version's OpenAPI
// document rendered in the browser by Redoc's standalone bundle, which the build copies into dist/ui/assets and the
// server sends itself (no CDN, no network).
import type { Hono } from "hono"
import { isApiVersion } from "../domain/api-key/index.js"
import { uiFile } from "./dashboard/assets.js"
import type { DepsOf } from "./deps.js"
import { errorBody } from "./envelope.js"
import { errors } from "./errors.js"
import { respond } from "./respond.js"

export const REDOC_BUNDLE = "redoc.standalone.js"

/** Everything from the simulator itself: the renderer's own links to its CDN (a logo) are not fetched. */
const POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"

const text = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const page = (version: string, versions: ReadonlyArray<string>): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>custody-sim API ${text(version)}</title>
<link rel="icon" href="data:,">
<style>body{margin:0;font-family:system-ui,sans-serif}nav.versions{padding:6px 16px;border-bottom:1px solid #ddd;font-size:14px}nav.versions a{margin-right:12px}</style>
</head>
<body>
<nav class="versions" aria-label="API versions">API version: ${versions
  .map((v) => (v === version ? `<strong>${text(v)}</strong>` : `<a href="/docs/${text(v)}">${text(v)}</a>`))
  .join(" ")} · <a href="/openapi/${text(version)}.json">OpenAPI document</a></nav>
<div id="redoc"></div>
<script src="/docs/assets/${REDOC_BUNDLE}"></script>
<script>Redoc.init(${JSON.stringify(`/openapi/${version}.json`)}, { hideHostname: true, expandResponses: "200,201", jsonSampleExpandLevel: 3 }, document.getElementById("redoc"))</script>
</body>
</html>
`

export const mountDocsPage = (app: Hono, depsOf: DepsOf): void => {
  const html = (version: string, versions: ReadonlyArray<string>) =>
    new Response(page(version, versions), {
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", "content-security-policy": POLICY },
    })
  app.get("/docs", (c) => {
    const { apiVersions } = depsOf(c)
    return html(apiVersions[apiVersions.length - 1]!, apiVersions)
  })
  app.get("/docs/assets/:name", async (c) => {
    const f = c.req.param("name") === REDOC_BUNDLE ? await uiFile(`assets/${REDOC_BUNDLE}`) : undefined
    if (f === undefined) {
      const deps = depsOf(c)
      const e = errors.uriNotFound()
      return respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), undefined, e))
    }
    return c.body(f.body as Uint8Array<ArrayBuffer>, 200, { "content-type": f.type, "cache-control": "no-cache" })
  })
  app.get("/docs/:version", (c) => {
    const deps = depsOf(c)
    const version = c.req.param("version")
    if (!isApiVersion(version) || !deps.apiVersions.includes(version)) {
      const e = errors.uriNotFound()
      return respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), undefined, e))
    }
    return html(version, deps.apiVersions)
  })
}
