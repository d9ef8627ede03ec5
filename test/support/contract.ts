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
  const [{ Ajv2020 }, { defaultOperations }, { openApiDocument, successStatus }, { API_VERSIONS, isApiVersion }] = await Promise.all([
    import("ajv/dist/2020.js"),
    import("../../src/api/app.js"),
    import("../../src/api/openapi.js"),
    import("../../src/domain/api-key/index.js"),
  ])
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  return { ajv, defaultOperations, openApiDocument, successStatus, isApiVersion, versions: API_VERSIONS }
}
type Loaded = Awaited<ReturnType<typeof load>>
/** Loaded once a file has answers: its ajv holds the documents the validators refer into. */
let loaded: Loaded | undefined

interface Violation {
  readonly operation: string
  readonly status: number
  readonly problem: unknown
  readonly body: string
}

const documents = new Map<ApiVersion, any>()
const validators = new Map<string, ValidateFunction | undefined>()

const RESPONSES = "#/components/responses/"
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

/**
 * The schema of an operation's answer with this status in the served document (an operation an app adds on its own
 * is documented the same way); undefined when the document has no such answer.
 */
const answerValidator = (
  { ajv, defaultOperations, openApiDocument }: Loaded,
  op: Operation,
  version: ApiVersion,
  status: number,
): ValidateFunction | undefined => {
  const key = `${version} ${op.method} ${op.path} ${op.id} ${status}`
  if (validators.has(key)) return validators.get(key)
  let doc = documents.get(version)
  if (doc === undefined) {
    documents.set(version, (doc = openApiDocument(defaultOperations, version)))
    registered.set(version, register(ajv, doc))
  }
  const own = defaultOperations.includes(op)
  const document: any = own ? doc : openApiDocument([op], version)
  const path = openApiPath(op.path)
  const method = op.method.toLowerCase()
  let v: ValidateFunction | undefined
  // An error answer may be a shared one (components.responses), referred to by the operation.
  const response = document.paths[path]?.[method]?.responses[String(status)]
  const shared = typeof response?.$ref === "string" ? response.$ref.slice(RESPONSES.length) : undefined
  const at = shared !== undefined ? ["components", "responses", shared] : ["paths", path, method, "responses", String(status)]
  const answer = shared !== undefined ? document.components.responses[shared] : response
  if (answer?.content["application/json"].schema !== undefined) {
    const key = own ? registered.get(version)! : register(ajv, document)
    v = ajv.compile({ $ref: `${key}#/${pointer(...at, "content", "application/json", "schema")}` })
  }
  validators.set(key, v)
  return v
}

const check = (loaded: Loaded, violations: Array<Violation>, { operation, status, body }: ObservedAnswer): void => {
  const { isApiVersion, successStatus, versions } = loaded
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
    const validate = answerValidator(loaded, operation, version, status)
    if (validate === undefined) return fail(`the ${version} document has no ${operation.method} ${operation.path}`)
    if (!validate(parsed)) fail(validate.errors)
    return
  }
  // An error answered before the key's version is known (401, 415) says 2024-05-09, and one for an operation the
  // version has not is an unknown route there: such an answer is checked against a version that has the operation.
  const candidates = [version, ...versions.filter((v) => v !== version)]
  let problem: unknown = `no version's document declares a ${status} answer for ${operation.id}`
  for (const v of candidates) {
    const validate = answerValidator(loaded, operation, v, status)
    if (validate === undefined) continue
    if (validate(parsed)) return
    if (v === version || typeof problem === "string") problem = validate.errors
  }
  fail(problem)
}

/** The answers that fall outside their version's document (none: every answer is in it). */
export const contractViolations = async (answers: ReadonlyArray<ObservedAnswer>): Promise<ReadonlyArray<Violation>> => {
  const violations: Array<Violation> = []
  if (answers.length === 0) return violations
  loaded ??= await load()
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
