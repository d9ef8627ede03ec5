// `custody-sim audit <file | --data-dir dir> [--as-of position:N|time:T] [--html report.html] [--json]`.
import { writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { parseAsOf } from "../api/as-of.js"
import { isApiError } from "../api/errors.js"
import { auditText, runAudit } from "../audit/audit.js"
import { auditHtml } from "../audit/html.js"
import { openReplayed } from "../scenario/replay.js"
import type { Simulator } from "../simulator.js"
import { guard, makeProgress, openExisting, UsageError } from "./common.js"
import { replayFile } from "./replay.js"

export const usage = `custody-sim audit <file | --data-dir dir | --store esdb --esdb url> [--as-of position:N|time:T] [--html report.html] [--json]
  Reconciles every balance against the events (see docs/time-travel.md) and prints the discrepancies and the
  digest. Exit status 0 when the audit is clean, 1 when it found discrepancies, 2 on a usage error.
`

const parse = (argv: ReadonlyArray<string>) => {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        "data-dir": { type: "string" },
        store: { type: "string", default: "sqlite" },
        esdb: { type: "string" },
        "as-of": { type: "string" },
        html: { type: "string" },
        json: { type: "boolean", default: false },
      },
    })
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e))
  }
}

const open = async (file: string | undefined, o: ReturnType<typeof parse>["values"]): Promise<Simulator> => {
  if (file !== undefined) {
    if (o["data-dir"] !== undefined || o.esdb !== undefined) throw new UsageError("audit takes a file or a store, not both")
    return (await replayFile(file, {}, "loading")).sim
  }
  if (o["data-dir"] === undefined && o.store !== "esdb") throw new UsageError("audit needs a file or --data-dir")
  return openReplayed(await openExisting({ store: o.store, dataDir: o["data-dir"] ?? "", esdb: o.esdb }), null)
}

export const run = (argv: ReadonlyArray<string>): Promise<void> =>
  guard(usage, async () => {
    const { values, positionals } = parse(argv)
    if (positionals.length > 1) throw new UsageError("audit takes at most one file")
    const sim = await open(positionals[0], values)
    try {
      const asOf = parseAsOf(values["as-of"], sim.models, "--as-of")
      if (isApiError(asOf)) throw new UsageError(asOf.message)
      const progress = makeProgress("auditing")
      const report = await runAudit(sim, asOf, { onProgress: (n, head) => progress.update(n, Number(head) + 1) })
      progress.done()
      if (values.html !== undefined) writeFileSync(values.html, auditHtml(report, sim.models))
      process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${auditText(report)}\n`)
      return report.ok ? 0 : 1
    } finally {
      await sim.close()
    }
  })
