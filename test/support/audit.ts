// The audit as the CLI and /_sim/audit run it: the ledger's reconciliation with the digest of the API's answers.
import { auditDigest } from "../../src/api/digest/digest.js"
import { runAudit as audit, type AuditReport } from "../../src/audit/audit.js"
import type { AsOf } from "../../src/projections/projection.js"
import type { Simulator } from "../../src/simulator.js"

export const runAudit = (sim: Simulator, asOf: AsOf): Promise<AuditReport> => audit(sim, asOf, { digest: auditDigest(sim) })
