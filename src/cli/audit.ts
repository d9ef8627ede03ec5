// `custody-sim audit <file | --data-dir dir> [--as-of position:N|time:T] [--html report.html] [--json]`.
import { writeFileSync } from "node:fs"
import { parseAsOf } from "../api/as-of.js"
import { isApiError } from "../api/errors.js"
import { auditDigest } from "../api/digest/digest.js"
import { auditText, runAudit } from "../audit/audit.js"
import { auditHtml } from "../audit/html.js"
import { openReplayed } from "../simulator.js"
import type { Simulator } from "../simulator.js"
import { makeProgress, openExisting } from "./common.js"
import { UsageError } from "./failure.js"
import { replayFile } from "./replay.js"

interface AuditOptions {
  readonly dataDir?: string
  readonly store?: string
  readonly esdb?: string
  readonly asOf?: string
  readonly html?: string
  readonly json?: boolean
}

const open = async (file: string | undefined, o: AuditOptions): Promise<Simulator> => {
  if (file !== undefined) {
    if (o.dataDir !== undefined || o.esdb !== undefined) throw new UsageError("audit takes a file or a store, not both")
    return (await replayFile(file, {}, "loading")).sim
  }
  if (o.dataDir === undefined && o.store !== "esdb") throw new UsageError("audit needs a file or --data-dir")
  return openReplayed(await openExisting({ store: o.store ?? "sqlite", dataDir: o.dataDir ?? "", esdb: o.esdb }), null)
}

export const run = async (file: string | undefined, o: AuditOptions): Promise<number> => {
  const sim = await open(file, o)
  try {
    const asOf = parseAsOf(o.asOf, sim.models, "--as-of")
    if (isApiError(asOf)) throw new UsageError(asOf.message)
    const progress = makeProgress("auditing")
    const report = await runAudit(sim, asOf, { digest: auditDigest(sim), onProgress: (n, head) => progress.update(n, Number(head) + 1) })
    progress.done()
    if (o.html !== undefined) writeFileSync(o.html, auditHtml(report, sim.models))
    process.stdout.write(o.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${auditText(report)}\n`)
    return report.ok ? 0 : 1
  } finally {
    await sim.close()
  }
}
