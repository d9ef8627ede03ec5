// The benchmark runner: `npm run bench [-- [names…] [--quick] [--strict] [--list]]`.
// Every benchmark reports a figure against a baseline measured in the same run (or, where no fair baseline
// exists, an absolute figure, flagged as such); the runner prints one line each, a summary table, and writes
// bench-results/latest.json. It exits 0 when budgets fail (a report, not a gate) unless --strict is given;
// a benchmark that crashes makes it exit 1.
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, loadavg, platform, release } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { addressDerivation, esdbAppends } from "./external.js"
import { dashboard } from "./dashboard.js"
import { depositsMined } from "./deposits-mined.js"
import { httpGetVaults, httpGetVaults2026, httpGetVaults2026Vs2024 } from "./http-get-vaults.js"
import { httpGetAddressAssets, httpGetAddressBalance2026, httpGetVaultAssets, httpGetVaultAssets2026 } from "./http-reads.js"
import { requestLog } from "./request-log.js"
import {
  commandThroughput,
  httpPostSingleTransfer,
  httpPostSingleTransfer2026,
  httpPostSingleTransfer2026Vs2024,
  singleTransfer2026Vs2024InProcess,
} from "./single-transfer.js"
import { fmt } from "./lib/stats.js"
import type { Benchmark, Budget, Measurement, RunOptions } from "./lib/types.js"
import { storeAppendMemoryVsEmmett } from "./store-append-memory-vs-emmett.js"
import { storeAppendSqliteBatch100, storeAppendSqliteSingle } from "./store-append-sqlite.js"
import { httpUtxoTransferValidate, utxoTransferValidate } from "./utxo-transfer-validate.js"
import { webhooks } from "./webhooks.js"
import { webhookIsolation } from "./webhook-isolation.js"
import { revert } from "./revert.js"
import { cliStart } from "./cli-start.js"
import { checkpointRestart } from "./checkpoint-restart.js"
import { vaultAccountListing } from "./vault-account-listing.js"
import { reads2026Vs2024InProcess } from "./reads-2026-vs-2024.js"
import { worldsBench } from "./worlds.js"
import { faultsNonMatching } from "./faults.js"

/** Add new benchmarks here (a module exporting a Benchmark); they run in this order. */
export const registry: ReadonlyArray<Benchmark> = [
  httpGetVaults,
  httpGetVaults2026,
  httpGetVaults2026Vs2024,
  requestLog,
  storeAppendMemoryVsEmmett,
  storeAppendSqliteSingle,
  storeAppendSqliteBatch100,
  addressDerivation,
  esdbAppends,
  httpGetAddressAssets,
  httpGetVaultAssets,
  httpGetAddressBalance2026,
  httpGetVaultAssets2026,
  reads2026Vs2024InProcess,
  faultsNonMatching,
  vaultAccountListing,
  depositsMined,
  httpPostSingleTransfer,
  httpPostSingleTransfer2026,
  httpPostSingleTransfer2026Vs2024,
  singleTransfer2026Vs2024InProcess,
  commandThroughput,
  utxoTransferValidate,
  httpUtxoTransferValidate,
  webhooks,
  webhookIsolation,
  dashboard,
  revert,
  cliStart,
  checkpointRestart,
  worldsBench,
]

type Status = "PASS" | "FAIL" | "SKIP" | "ERROR"

interface Row {
  readonly name: string
  readonly description: string
  readonly budget: Budget
  readonly status: Status
  readonly subject?: number
  readonly baseline?: number
  readonly unit?: string
  readonly ratio?: number
  readonly note?: string
  readonly samples?: Measurement["samples"]
  readonly details?: Measurement["details"]
  readonly error?: string
  readonly seconds: number
}

export const budgetText = (b: Budget): string => {
  switch (b.kind) {
    case "ratio-min":
      return `≥ ${b.value}× baseline`
    case "ratio-max":
      return `≤ ${b.value}× baseline`
    case "absolute-min":
      return `≥ ${fmt(b.value)} ${b.unit} (absolute)`
    case "absolute-max":
      return `≤ ${fmt(b.value)} ${b.unit} (absolute)`
  }
}

const ratioOf = (m: Measurement): number | undefined =>
  m.ratio ?? (m.baseline !== undefined && m.baseline !== 0 ? m.subject / m.baseline : undefined)

const verdict = (b: Budget, m: Measurement): "PASS" | "FAIL" => {
  const ratio = ratioOf(m)
  switch (b.kind) {
    case "ratio-min":
      return ratio !== undefined && ratio >= b.value ? "PASS" : "FAIL"
    case "ratio-max":
      return ratio !== undefined && ratio <= b.value ? "PASS" : "FAIL"
    case "absolute-min":
      return m.subject >= b.value ? "PASS" : "FAIL"
    case "absolute-max":
      return m.subject <= b.value ? "PASS" : "FAIL"
  }
}

const line = (r: Row): string => {
  const head = r.name.padEnd(40)
  if (r.status === "SKIP" || r.status === "ERROR") return `${head} ${r.status}: ${r.note ?? r.error ?? ""}`
  const figures =
    r.baseline !== undefined
      ? `${fmt(r.subject)} vs ${fmt(r.baseline)} ${r.unit}  ratio ${r.ratio!.toFixed(3)}`
      : `${fmt(r.subject)} ${r.unit} (absolute)`
  return `${head} ${figures}  budget ${budgetText(r.budget)}  ${r.status}`
}

const table = (rows: ReadonlyArray<Row>): string => {
  const header = ["Benchmark", "Subject", "Baseline", "Unit", "Ratio", "Budget", "Result"]
  const cells = rows.map((r) => [
    r.name,
    fmt(r.subject),
    fmt(r.baseline),
    r.unit ?? "",
    r.ratio !== undefined ? r.ratio.toFixed(3) : "-",
    budgetText(r.budget),
    r.status,
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)))
  const fmtRow = (c: ReadonlyArray<string>) =>
    c.map((x, i) => (i >= 1 && i <= 4 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join("  ")
  return [fmtRow(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(fmtRow)].join("\n")
}

const usage = `usage: npm run bench -- [name…] [--quick] [--strict] [--list]
  name      run only benchmarks whose name contains one of these (e.g. http, sqlite, emmett)
  --quick   shorter durations and a single round: a smoke run, not a measurement
  --strict  exit 1 when a budget fails (default: report only)
  --list    list the benchmarks and exit`

const main = async (): Promise<number> => {
  const args = process.argv.slice(2)
  const flags = new Set(args.filter((a) => a.startsWith("--")))
  for (const f of flags)
    if (!["--quick", "--strict", "--list", "--help"].includes(f)) {
      console.error(`unknown option ${f}\n${usage}`)
      return 2
    }
  if (flags.has("--help")) {
    console.log(usage)
    return 0
  }
  if (flags.has("--list")) {
    for (const b of registry) console.log(`${b.name.padEnd(40)} ${budgetText(b.budget).padEnd(32)} ${b.description}`)
    return 0
  }
  const names = args.filter((a) => !a.startsWith("--")).map((a) => a.toLowerCase())
  const selected = names.length === 0 ? registry : registry.filter((b) => names.some((n) => b.name.toLowerCase().includes(n)))
  if (selected.length === 0) {
    console.error(`no benchmark matches ${names.join(", ")}; known: ${registry.map((b) => b.name).join(", ")}`)
    return 2
  }
  const quick = flags.has("--quick")
  const options: RunOptions = { quick, log: (l) => console.error(l) }
  const started = new Date()
  console.log(
    `custody-sim benchmarks${quick ? " (--quick: smoke run, figures not meaningful)" : ""}: ${selected.length} selected; ` +
      `${cpus().length} cores (${cpus()[0]?.model.trim() ?? "?"}), node ${process.version}, load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
  )
  const rows: Array<Row> = []
  for (const b of selected) {
    console.error(`▶ ${b.name}: ${b.description}`)
    const t0 = performance.now()
    const base = { description: b.description, budget: b.budget }
    try {
      const out = await b.run(options)
      const seconds = (performance.now() - t0) / 1000
      if ("skipped" in out) {
        rows.push({ ...base, name: b.name, status: "SKIP", note: out.skipped, seconds })
        console.log(line(rows[rows.length - 1]!))
        continue
      }
      for (const m of Array.isArray(out) ? (out as ReadonlyArray<Measurement>) : [out as Measurement]) {
        const ratio = ratioOf(m)
        const budget = m.budget ?? b.budget
        rows.push({
          ...base,
          budget,
          name: m.label !== undefined ? `${b.name}/${m.label}` : b.name,
          status: verdict(budget, m),
          subject: m.subject,
          unit: m.unit,
          seconds,
          ...(m.baseline !== undefined ? { baseline: m.baseline } : {}),
          ...(ratio !== undefined ? { ratio } : {}),
          ...(m.note !== undefined ? { note: m.note } : {}),
          ...(m.samples !== undefined ? { samples: m.samples } : {}),
          ...(m.details !== undefined ? { details: m.details } : {}),
        })
        console.log(line(rows[rows.length - 1]!))
        if (m.note !== undefined) console.log(`${"".padEnd(40)} (${m.note})`)
      }
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e)
      rows.push({ ...base, name: b.name, status: "ERROR", error, seconds: (performance.now() - t0) / 1000 })
      console.log(line({ ...rows[rows.length - 1]!, error: error.split("\n")[0]! }))
      console.error(error)
    }
  }

  console.log(`\n${table(rows)}`)
  const count = (s: Status) => rows.filter((r) => r.status === s).length
  const took = (Date.now() - started.getTime()) / 1000
  console.log(
    `\n${count("PASS")} pass, ${count("FAIL")} fail, ${count("SKIP")} skipped, ${count("ERROR")} error(s) in ${took.toFixed(0)} s`,
  )

  const out = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bench-results", "latest.json")
  mkdirSync(dirname(out), { recursive: true })
  const report = {
    startedAt: started.toISOString(),
    seconds: took,
    quick,
    strict: flags.has("--strict"),
    selection: names,
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model.trim(),
      platform: platform(),
      release: release(),
      node: process.version,
      loadavgAtEnd: loadavg(),
    },
    results: rows,
  }
  writeFileSync(out, JSON.stringify(report, null, 2) + "\n")
  console.log(`results: ${out}`)

  if (count("ERROR") > 0) return 1
  if (flags.has("--strict") && count("FAIL") > 0) return 1
  return 0
}

process.exitCode = await main()
