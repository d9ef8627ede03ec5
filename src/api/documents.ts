// The documents served without authentication: GET / (where everything is), GET /openapi/{version}.json (with the
// examples the build took from its scripted run, dist/openapi/examples.json), the reference pages at /docs
// (docs-page.ts) and GET /_sim/openapi.json.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Hono } from "hono"
import { OPENAPI_DIR } from "../adapters/package-root.js"
import { isApiVersion } from "../domain/api-key/index.js"
import type { DepsOf } from "./deps.js"
import { mountDocsPage } from "./docs-page.js"
import { errorBody } from "./envelope.js"
import { errors } from "./errors.js"
import { openApiDocument } from "./openapi.js"
import { type Examples, withExamples } from "./openapi/examples.js"
import type { Operation } from "./operation.js"
import { respond } from "./respond.js"
import type { SimRoute } from "./sim/common.js"

/** The examples the build took from its scripted run (none before a build: the documents are served without). */
const builtExamples = (): Examples => {
  try {
    return JSON.parse(readFileSync(join(OPENAPI_DIR, "examples.json"), "utf8")) as Examples
  } catch {
    return {}
  }
}

/** `dashboard`: the dashboard is served (GET / names it only then). */
export const mountDocuments = (app: Hono, depsOf: DepsOf, operations: ReadonlyArray<Operation>, dashboard: boolean): void => {
  const built = new Map<string, string>()
  let examples: Examples | undefined
  app.get("/", (c) => {
    const deps = depsOf(c)
    const origin = new URL(c.req.url).origin
    const openapi = Object.fromEntries(deps.apiVersions.map((v) => [v, `${origin}/openapi/${v}.json`]))
    return respond(
      c,
      200,
      JSON.stringify({
        name: "custody-sim",
        about: "a simulator of an MPC custody REST service: sign each request as the spec says; /_sim is the control plane (admin token)",
        docs: "README.md (the endpoint table under Endpoints) and docs/*.md of the custody-sim package",
        ...(dashboard ? { dashboard: `${origin}/ui` } : {}),
        reference: `${origin}/docs`,
        openapi: { ...openapi, controlPlane: `${origin}/_sim/openapi.json` },
        health: `${origin}/_sim/health`,
      }),
    )
  })
  app.get("/openapi/:file", (c) => {
    const deps = depsOf(c)
    const version = /^(.+)\.json$/.exec(c.req.param("file"))?.[1]
    if (!isApiVersion(version) || !deps.apiVersions.includes(version)) {
      const e = errors.uriNotFound()
      return respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), undefined, e))
    }
    let text = built.get(version)
    if (text === undefined) {
      examples ??= builtExamples()
      text = JSON.stringify(withExamples(openApiDocument(operations, version), examples[version]))
      built.set(version, text)
    }
    return respond(c, 200, text)
  })
  mountDocsPage(app, depsOf)
}

export const openApiRoute = (document: () => unknown): SimRoute => {
  let text: string | undefined
  return {
    method: "GET",
    path: "/_sim/openapi.json",
    public: true,
    handle: () => ({ status: 200, body: JSON.parse((text ??= JSON.stringify(document()))) }),
  }
}
