// Writes src/event-log/event-schemas.ts: an Effect Schema of every event type's data, derived from the event type
// declarations by the TypeScript compiler (npm run event-schemas; a test fails when the file is stale).
import { writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import ts from "typescript"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
export const OUTPUT = "src/event-log/event-schemas.ts"

/** The unions of every event the simulator writes, as their modules export them. */
const UNIONS: ReadonlyArray<readonly [file: string, type: string]> = [
  ["src/domain/vault/events.ts", "VaultEvent"],
  ["src/domain/api-key/events.ts", "ApiKeyEvent"],
  ["src/domain/settings/index.ts", "SettingsEvent"],
  ["src/domain/fault/events.ts", "FaultEvent"],
  ["src/domain/webhook/events.ts", "WebhookEvent"],
  ["src/domain/webhook/events.ts", "WebhookDeliveryEvent"],
  ["src/domain/vault-account/events.ts", "VaultAccountEvent"],
  ["src/domain/ledger/events.ts", "LedgerEvent"],
  ["src/domain/transaction-request/events.ts", "TxRequestEvent"],
  ["src/chain-sim/events.ts", "ChainEvent"],
]

export const generate = (): string => {
  const program = ts.createProgram(
    UNIONS.map(([f]) => `${ROOT}${f}`),
    {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
    },
  )
  const checker = program.getTypeChecker()
  const fail = (what: string, at: string): never => {
    throw new Error(`${at}: cannot derive a schema for ${what}`)
  }

  const isBrandOnly = (t: ts.Type) =>
    (t.flags & ts.TypeFlags.Object) !== 0 &&
    checker.getPropertiesOfType(t).every((p) => {
      const pt = checker.getTypeOfSymbol(p)
      return (pt.flags & ts.TypeFlags.UniqueESSymbol) !== 0
    })

  const schemaOf = (t: ts.Type, at: string): string => {
    if (t.flags & ts.TypeFlags.String) return "Schema.String"
    if (t.flags & ts.TypeFlags.Number) return "Schema.Finite"
    if (t.flags & ts.TypeFlags.Boolean) return "Schema.Boolean"
    if (t.flags & ts.TypeFlags.Null) return "Schema.Null"
    if (t.isStringLiteral()) return `Schema.Literal(${JSON.stringify(t.value)})`
    if (t.isNumberLiteral()) return `Schema.Literal(${t.value})`
    if (t.flags & ts.TypeFlags.BooleanLiteral) return `Schema.Literal(${checker.typeToString(t)})`
    if (t.isUnion()) {
      const members = t.types
      const hasNull = members.some((m) => m.flags & ts.TypeFlags.Null)
      const rest = members.filter((m) => !(m.flags & ts.TypeFlags.Null) && !(m.flags & ts.TypeFlags.Undefined))
      const trueFalse = rest.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral)
      const others = trueFalse.length === 2 ? rest.filter((m) => !(m.flags & ts.TypeFlags.BooleanLiteral)) : rest
      const parts = [...(trueFalse.length === 2 ? ["Schema.Boolean"] : []), ...others.map((m) => schemaOf(m, at))]
      const literals = others.every((m) => m.isStringLiteral() || m.isNumberLiteral()) && trueFalse.length !== 2
      const inner =
        parts.length === 1
          ? parts[0]!
          : literals
            ? `Schema.Literals([${others.map((m) => JSON.stringify((m as ts.LiteralType).value)).join(", ")}])`
            : `Schema.Union([${parts.join(", ")}])`
      return hasNull ? `Schema.NullOr(${inner})` : inner
    }
    if (t.isIntersection()) {
      const real = t.types.filter((m) => !isBrandOnly(m))
      if (real.length === 1 && t.types.length > 1 && real[0]!.flags & (ts.TypeFlags.String | ts.TypeFlags.Number))
        return schemaOf(real[0]!, at)
      return structOf(t, at)
    }
    if (
      checker.isArrayType(t) ||
      (t.flags & ts.TypeFlags.Object &&
        (t as ts.TypeReference).target !== undefined &&
        ["ReadonlyArray", "Array"].includes(t.symbol?.name ?? ""))
    ) {
      const [item] = checker.getTypeArguments(t as ts.TypeReference)
      return `Schema.Array(${schemaOf(item ?? fail("an array without its item type", at), `${at}[]`)})`
    }
    if (t.flags & ts.TypeFlags.Object) {
      const index = checker.getIndexInfoOfType(t, ts.IndexKind.String)
      if (index !== undefined && checker.getPropertiesOfType(t).length === 0)
        return `Schema.Record(Schema.String, ${schemaOf(index.type, `${at}[*]`)})`
      return structOf(t, at)
    }
    return fail(checker.typeToString(t), at)
  }

  const structOf = (t: ts.Type, at: string): string => {
    const fields = checker.getPropertiesOfType(t).map((p) => {
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0
      // An optional key's type includes undefined, which the union case leaves out: the key is absent or valid.
      const s = schemaOf(checker.getTypeOfSymbol(p), `${at}.${p.name}`)
      return `${JSON.stringify(p.name)}: ${optional ? `Schema.optionalKey(${s})` : s}`
    })
    return `Schema.Struct({ ${fields.join(", ")} })`
  }
  const entries: Array<string> = []
  for (const [file, name] of UNIONS) {
    const source = program.getSourceFile(`${ROOT}${file}`) ?? fail(file, file)
    const symbol = checker.getSymbolAtLocation(source)
    const exported = checker.getExportsOfModule(symbol!).find((s) => s.name === name) ?? fail(name, file)
    const union = checker.getDeclaredTypeOfSymbol(exported)
    for (const member of union.isUnion() ? union.types : [union]) {
      const typeProp = member.getProperty("type")
      const dataProp = member.getProperty("data")
      if (typeProp === undefined || dataProp === undefined) fail(`a member of ${name} without type and data`, file)
      const literal = checker.getTypeOfSymbol(typeProp!)
      if (!literal.isStringLiteral()) fail(`${name}'s type that is not a string literal`, file)
      const eventType = (literal as ts.StringLiteralType).value
      entries.push(`  ${eventType}: ${schemaOf(checker.getTypeOfSymbol(dataProp!), `${eventType}.data`)},`)
    }
  }
  return [
    "// Generated by `npm run event-schemas` from the event type declarations (src/domain, src/chain-sim): do not edit.",
    "// The data of each event type as an Effect Schema; an import checks every event against its type's.",
    'import { Schema } from "effect"',
    "",
    "export const eventDataSchemas = {",
    ...entries,
    "} as const",
    "",
  ].join("\n")
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(`${ROOT}${OUTPUT}`, generate())
  console.log(`wrote ${OUTPUT}`)
}
