// Control plane: GET /_sim/audit?asOf= — the audit report as JSON, or as an HTML page when asked for text/html
// (a browser opening the `?token=` link serve prints, or with the dashboard's session cookie).
import { runAudit } from "../../audit/audit.js"
import { auditDigest } from "../digest/digest.js"
import { chartScript } from "../../audit/chart-script.js"
import { auditHtml } from "../../audit/html.js"
import { parseAsOf } from "../as-of.js"
import { errors, isApiError } from "../errors.js"
import type { SimRoute } from "./common.js"

const wantsHtml = (accept: string | undefined) => accept !== undefined && /(^|,)\s*text\/html/i.test(accept)

/** The report runs its own inline chart script and nothing else; the dashboard may frame it. */
const reportPolicy = () => {
  const script = chartScript()
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'${script === null ? "" : `; script-src ${script.cspSource}`}`
}

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
      const report = await runAudit(deps.sim, asOf, { digest: auditDigest(deps.sim) })
      if (wantsHtml(c.req.header("accept")))
        return { response: c.html(auditHtml(report, deps.sim.models), 200, { "content-security-policy": reportPolicy() }) }
      return { status: 200, body: report }
    },
  },
]
