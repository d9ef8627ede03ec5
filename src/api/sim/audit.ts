// Control plane: GET /_sim/audit?asOf= — the audit report as JSON, or as an HTML page when asked for text/html
// (a browser opening the `?token=` link serve prints, or with the dashboard's session cookie).
import { runAudit } from "../../audit/audit.js"
import { auditHtml } from "../../audit/html.js"
import { parseAsOf } from "../as-of.js"
import { errors, isApiError } from "../errors.js"
import type { SimRoute } from "./common.js"

const wantsHtml = (accept: string | undefined) => accept !== undefined && /(^|,)\s*text\/html/i.test(accept)

export const auditRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/audit",
    tokenInQuery: true,
    handle: async ({ query, c }, deps) => {
      const unknown = Object.keys(query).filter((k) => k !== "asOf" && k !== "token")
      if (unknown.length > 0) return errors.invalidData(unknown.map((k) => ({ attribute: k, message: "is not a parameter of the audit" })))
      const asOf = parseAsOf(query.asOf, deps.sim.models, "asOf")
      if (isApiError(asOf)) return asOf
      const report = await runAudit(deps.sim, asOf)
      if (wantsHtml(c.req.header("accept"))) return { response: c.html(auditHtml(report, deps.sim.models)) }
      return { status: 200, body: report }
    },
  },
]
