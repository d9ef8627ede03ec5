// The contract check: every answer of an operation, in every test file, validates against the OpenAPI document
// of the version that shaped it (ajv, draft 2020-12 as OpenAPI 3.1 uses); a field the document lacks fails.
// The set-up imports only the hook (answer-observer.ts imports nothing): the app, the documents and ajv load after a
// file's tests, and only in a file whose tests got answers (where the app is loaded already).
import type { ValidateFunction } from "ajv/dist/2020.js"
import { afterAll } from "vitest"
import { observeAnswers } from "../../src/api/answer-observer.js"
import type { ObservedAnswer, Operation } from "../../src/api/operation.js"
import type { ApiVersion } from "../../src/domain/api-key/index.js"

/** What the check needs, loaded once it has answers to check. */
const load = async () => {
  const [{ Ajv2020 }, { defaultOperations }, { openApiDocument, successStatus }, { isApiVersion }] = await Promise.all([
    import("ajv/dist/2020.js"),
    import("../../src/api/app.js"),
    import("../../src/api/openapi.js"),
    import("../../src/domain/api-key/index.js"),
  ])
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  return { ajv, defaultOperations, openApiDocument, successStatus, isApiVersion }
}
type Loaded = Awaited<ReturnType<typeof load>>

interface Violation {
  readonly operation: string
  readonly status: number
  readonly problem: unknown
  readonly body: string
}

const documents = new Map<ApiVersion, any>()
const validators = new Map<string, ValidateFunction>()
let errorValidator: ValidateFunction | undefined

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")
const pointer = (...parts: ReadonlyArray<string>) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")
let documentCount = 0

/** A document ajv resolves references in (its components.schemas); the key to reach its parts by. */
const register = (ajv: Loaded["ajv"], doc: unknown): string => {
  const key = `openapi-${documentCount++}`
  ajv.addSchema(doc as object, key)
  return key
}
const registered = new Map<ApiVersion, string>()

/** The success schema in the served document (an operation an app adds on its own is documented the same way). */
const successValidator = (
  { ajv, defaultOperations, openApiDocument, successStatus }: Loaded,
  op: Operation,
  version: ApiVersion,
): ValidateFunction | undefined => {
  const key = `${version} ${op.method} ${op.path} ${op.id}`
  let v = validators.get(key)
  if (v === undefined) {
    let doc = documents.get(version)
    if (doc === undefined) {
      documents.set(version, (doc = openApiDocument(defaultOperations, version)))
      registered.set(version, register(ajv, doc))
    }
    const own = defaultOperations.includes(op)
    const document: any = own ? doc : openApiDocument([op], version)
    const at = own ? registered.get(version)! : register(ajv, document)
    const path = openApiPath(op.path)
    const method = op.method.toLowerCase()
    const status = String(successStatus(op))
    if (document.paths[path]?.[method]?.responses[status]?.content["application/json"].schema === undefined) return undefined
    validators.set(
      key,
      (v = ajv.compile({ $ref: `${at}#/${pointer("paths", path, method, "responses", status, "content", "application/json", "schema")}` })),
    )
  }
  return v
}

const check = (loaded: Loaded, violations: Array<Violation>, { operation, status, body }: ObservedAnswer): void => {
  const { ajv, isApiVersion, openApiDocument, successStatus } = loaded
  const fail = (problem: unknown): void => {
    violations.push({ operation: operation.id, status, problem, body: body.slice(0, 2000) })
  }
  let parsed: any
  try {
    parsed = JSON.parse(body)
  } catch {
    return fail("not JSON")
  }
  const version = parsed?.apiVersion
  if (!isApiVersion(version)) return fail(`apiVersion ${JSON.stringify(version)} is not a version`)
  if (status >= 200 && status < 300) {
    if (status !== successStatus(operation)) return fail(`success status ${status}, the document says ${successStatus(operation)}`)
    const validate = successValidator(loaded, operation, version)
    if (validate === undefined) return fail(`the ${version} document has no ${operation.method} ${operation.path}`)
    if (!validate(parsed)) fail(validate.errors)
    return
  }
  if (errorValidator === undefined) {
    const at = register(ajv, openApiDocument([], version))
    errorValidator = ajv.compile({ $ref: `${at}#/components/schemas/ErrorEnvelope` })
  }
  if (!errorValidator(parsed)) fail(errorValidator.errors)
}

/** The answers that fall outside their version's document (none: every answer is in it). */
export const contractViolations = async (answers: ReadonlyArray<ObservedAnswer>): Promise<ReadonlyArray<Violation>> => {
  const violations: Array<Violation> = []
  if (answers.length === 0) return violations
  const loaded = await load()
  for (const a of answers) check(loaded, violations, a)
  return violations
}

/** Answers are checked after the file's tests (kept out of their time limits), each once. */
const seen: Array<ObservedAnswer> = []

export const installContractCheck = (): void => {
  observeAnswers<Operation>((a) => seen.push(a))
  afterAll(async () => {
    const violations = await contractViolations(seen.splice(0))
    if (violations.length > 0)
      throw new Error(`answers outside their OpenAPI document:\n${JSON.stringify(violations.slice(0, 5), null, 1)}`)
  })
}
