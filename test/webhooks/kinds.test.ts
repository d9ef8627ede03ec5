// The lists of webhook kinds are held to the NotificationKind union by the compiler: a kind added to the union and
// not to a list, left out of one, or a list's key that is no kind, fails to typecheck.
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import type { NotificationKind } from "../../src/domain/ledger/events.js"
import { everyMember, membersMarked } from "../../src/domain/shared/members.js"
import { notificationKinds } from "../../src/domain/webhook/index.js"

const root = fileURLToPath(new URL("../..", import.meta.url))
const kindsFile = `${root}src/domain/ledger/events.ts`

/**
 * Typechecks `files` with the project's options, the NotificationKind union in src/domain/ledger/events.ts given
 * one more member: the diagnostics in `files`, as "file: message".
 */
const diagnosticsWithNewKind = (files: ReadonlyArray<string>): ReadonlyArray<string> => {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )
  if (config === undefined) throw new Error("tsconfig.json did not parse")
  const host = ts.createCompilerHost(config.options)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, onError, create) => {
    if (name !== kindsFile) return read(name, language, onError, create)
    const text = ts.sys.readFile(name)!.replace('| "OUTGOING_FAILED"', '| "OUTGOING_FAILED"\n  | "OUTGOING_CANCELLED"')
    return ts.createSourceFile(name, text, language)
  }
  const program = ts.createProgram(
    files.map((f) => `${root}${f}`),
    { ...config.options, noEmit: true },
    host,
  )
  return files.flatMap((f) =>
    program
      .getSemanticDiagnostics(program.getSourceFile(`${root}${f}`))
      .map((d) => `${f}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`),
  )
}

describe("webhook kinds", () => {
  it("a subscription may name every kind, listed in the union's order", () => {
    expect(notificationKinds).toEqual([
      "INCOMING_CONFIRMED_COIN_TX",
      "INCOMING_CONFIRMED_TOKEN_TX",
      "INCOMING_MINED_TX",
      "TRANSACTION_REQUEST",
      "TRANSACTION_APPROVED",
      "TRANSACTION_REJECTED",
      "OUTGOING_MINED",
      "OUTGOING_FAILED",
    ])
  })

  it("a list or a marking that leaves a kind out, or names one that is none, does not typecheck", () => {
    const all = Object.fromEntries(notificationKinds.map((k) => [k, true])) as Record<NotificationKind, true>
    const { OUTGOING_FAILED: _left, ...allButOne } = all
    // @ts-expect-error OUTGOING_FAILED is missing
    everyMember<NotificationKind>(allButOne)
    // @ts-expect-error NOT_A_KIND is no NotificationKind
    everyMember<NotificationKind>({ ...all, NOT_A_KIND: true })
    // @ts-expect-error a marking must mark OUTGOING_FAILED too, true or false
    const marked = membersMarked<NotificationKind>(allButOne)
    expect(everyMember<NotificationKind>(all)).toEqual(notificationKinds)
    expect([...membersMarked<NotificationKind>({ ...all, INCOMING_MINED_TX: false })]).toEqual(
      notificationKinds.filter((k) => k !== "INCOMING_MINED_TX"),
    )
    expect([...marked]).toEqual(notificationKinds.slice(0, -1))
  })

  it("a kind added to the union fails to compile until every list of kinds places it", () => {
    const files = ["src/domain/webhook/events.ts", "src/webhooks/payload.ts"]
    const found = diagnosticsWithNewKind(files)
    expect(found).toHaveLength(3)
    for (const d of found) expect(d).toMatch(/Property 'OUTGOING_CANCELLED' is missing/)
    expect(found.map((d) => d.split(":")[0])).toEqual([
      "src/domain/webhook/events.ts",
      "src/webhooks/payload.ts",
      "src/webhooks/payload.ts",
    ])
  }, 120_000)
})
