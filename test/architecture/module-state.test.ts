// No module-level mutable state outside src/adapters/ (STYLE.md 4.9, "hidden global state"): a module-level `let`,
// or a module-level value the module mutates (a Map or Set it sets, an array it pushes to, an object it assigns a
// field of), is state every caller shares. Each one src/ keeps is named below with its reason; ARCHITECTURE.md
// ("State") gives the figures. A new one fails here until it moves behind a service or an adapter, or is named.
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))

// Calls that change the receiver (Map, Set, WeakMap, WeakSet, arrays, typed arrays).
const MUTATORS = new Set([
  "set",
  "add",
  "delete",
  "clear",
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "sort",
  "reverse",
  "fill",
  "copyWithin",
])

/**
 * The module-level names of one source that are state: every `let` or `var`, and every `const` the module itself
 * changes (a mutating call on it, an assignment to a property or element of it, anywhere in the file). What another
 * module does with an exported value is that module's own finding only if it is its own binding: this is a check
 * of each file as written, not a data-flow analysis.
 */
const moduleState = (file: string, text: string): Array<string> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const bindings = new Map<string, "let" | "const">()
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    const kind = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0 ? "const" : "let"
    for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) bindings.set(d.name.text, kind)
  }
  const changed = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression))
      if (MUTATORS.has(node.expression.name.text)) changed.add(node.expression.expression.text)
    const assigned =
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
        ? node.left
        : (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
            (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
          ? node.operand
          : ts.isDeleteExpression(node)
            ? node.expression
            : undefined
    if (assigned !== undefined) {
      let target: ts.Expression = assigned
      while (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) target = target.expression
      if (target !== assigned && ts.isIdentifier(target)) changed.add(target.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return [...bindings].filter(([name, kind]) => kind === "let" || changed.has(name)).map(([name]) => `${file}: ${name}`)
}

/**
 * The module-level state src/ keeps outside src/adapters/, each with its reason (ARCHITECTURE.md, "State", gives the
 * figures). Memos of a pure function and scratch buffers are invisible to callers; a WeakMap or WeakSet keyed by
 * the object it describes is that object's own state, kept beside it; a thread's or a page's entry module is its
 * composition root.
 */
const allowed: ReadonlyArray<string> = [
  // Keyed by the owner, so each app, simulator, request or table has its own; dropped with it.
  "src/api/chain-views/chain-cache.ts: caches", // each chain's façade index per chains read model object (a revert installs another)
  "src/api/dashboard/timeline.ts: cache", // the last timeline drawn per app (ApiDeps), for one log head
  "src/api/fault-mark.ts: marks", // the fault that answered each request, for the request log
  "src/api/world-mark.ts: marks", // the world that answered each request, for the request log
  "src/api/request-body.ts: bodies", // each request's body, for the request log (request-body.ts is being reworked with the API)
  "src/api/sim/scenario.ts: importing", // one scenario import at a time per simulator
  "src/projections/runner.ts: halts", // which causes are a fold's halt, by identity
  "src/projections/storage/string-table.ts: decodedOf", // a packed string table's strings decoded lately (not its state: a checkpoint leaves it out)
  "src/simulator.ts: openOn", // how many simulators this process has open on one store object: a revert refuses a shared one
  // Memos of a pure function of the code or of the arguments: the same answers, once.
  "src/api/digest/digest.ts: firstVersion", // the reads the oldest version has, from the operation table
  "src/api/pipeline/prepared.ts: specs", // each operation's decoders and checkers, the same for every app (world)
  "src/audit/chart-script.ts: cached", // the built chart script and its hash, read once
  "src/checkpoints/model-code.ts: cached", // the fingerprint of the read-model sources
  "src/domain/chains/addresses/validate.ts: verdicts", // address verdicts reached (bounded, 50,000)
  "src/domain/chains/addresses/validate.ts: verdictCount",
  "src/domain/shared/money.ts: zeroRuns", // "0".repeat(n) per n, for amounts formatted with leading zeros
  "src/cli/request-log-line.ts: clockSecond", // the request log's date prefix, made once per second
  "src/cli/request-log-line.ts: clockPrefix",
  "src/cli/request-log-line.ts: clockPrefixBytes",
  // Scratch for one call, never read across calls.
  "src/projections/balances/ledger.ts: target", // the fold's visitor's arguments: a closure per event would be an object per event
  "src/projections/balances/ledger.ts: at",
  "src/projections/storage/graph-decode.ts: int64Words", // a bigint's 64 bits as two words, read
  "src/projections/storage/graph-encode.ts: int64", // a bigint's 64 bits as two words, written
  // Entry modules: a process's, a thread's or a page's own.
  "src/api/answer-observer.ts: observer", // the contract test's hook on every answer (unset: apps pay nothing per request)
  "src/checkpoints/writer-thread.ts: models", // the checkpoint thread's copy of the read models and where it stands
  "src/checkpoints/writer-thread.ts: saved",
  "src/checkpoints/writer-thread.ts: folded",
  "src/checkpoints/writer-thread.ts: last",
  "src/checkpoints/writer-thread.ts: failed",
  "src/cli/request-log.ts: unwritten", // the request logs one exit listener flushes
  "src/cli/request-log.ts: flushesAtExit",
  "src/ui/api.ts: csrf", // the dashboard page's session token
]

const sources = (): ReadonlyArray<string> =>
  execFileSync("git", ["ls-files", "src"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !f.startsWith("src/adapters/"))

describe("module-level state", () => {
  it("outside src/adapters/ is only what the allow-list names, and each entry still exists", () => {
    const found = sources().flatMap((f) => moduleState(f, readFileSync(`${root}/${f}`, "utf8")))
    expect(found.filter((s) => !allowed.includes(s))).toEqual([])
    expect(allowed.filter((s) => !found.includes(s))).toEqual([])
  }, 60_000)

  it("is found: a let, a Map the module sets, an array it pushes to, an object it assigns; not a constant table", () => {
    const text = [
      "let client: string | undefined",
      "const cache = new Map<string, number>()",
      "const queue: Array<number> = []",
      "const counters = { hits: 0 }",
      "const KINDS: ReadonlySet<string> = new Set(['a', 'b'])",
      "export const hit = (k: string) => { cache.set(k, 1); queue.push(1); counters.hits++; return KINDS.has(k) }",
    ].join("\n")
    expect(moduleState("src/x.ts", text)).toEqual(["src/x.ts: client", "src/x.ts: cache", "src/x.ts: queue", "src/x.ts: counters"])
  })
})
