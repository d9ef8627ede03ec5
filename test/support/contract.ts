// The contract check: every answer of an operation, in every test file, validates against the OpenAPI document
// of the version that shaped it (ajv, draft 2020-12 as OpenAPI 3.1 uses); a field the document lacks fails.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import { afterAll } from "vitest"
import { defaultOperations } from "../../src/api/app.js"
import { errorEnvelopeSchema, jsonSchema, openApiDocument, successStatus } from "../../src/api/openapi.js"
import { observeAnswers, type ObservedAnswer, type Operation } from "../../src/api/operation.js"
import { isApiVersion, type ApiVersion } from "../../src/domain/api-key/index.js"

interface Violation {
  readonly operation: string
  readonly status: number
  readonly problem: unknown
  readonly body: string
}

const ajv = new Ajv2020({ strict: false, allErrors: true })
const documents = new Map<ApiVersion, any>()
const validators = new Map<string, ValidateFunction>()
const violations: Array<Violation> = []
let errorValidator: ValidateFunction | undefined

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")

/** The success schema in the served document (an operation an app adds on its own is documented the same way). */
const successValidator = (op: Operation, version: ApiVersion): ValidateFunction | undefined => {
  const key = `${version} ${op.method} ${op.path} ${op.id}`
  let v = validators.get(key)
  if (v === undefined) {
    let doc = documents.get(version)
    if (doc === undefined) documents.set(version, (doc = openApiDocument(defaultOperations, version)))
    const own = defaultOperations.includes(op)
      ? doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()]
      : (openApiDocument([op], version) as any).paths[openApiPath(op.path)]?.[op.method.toLowerCase()]
    const schema = own?.responses[String(successStatus(op))]?.content["application/json"].schema
    if (schema === undefined) return undefined
    validators.set(key, (v = ajv.compile(schema)))
  }
  return v
}

const check = ({ operation, status, body }: ObservedAnswer): void => {
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
    const validate = successValidator(operation, version)
    if (validate === undefined) return fail(`the ${version} document has no ${operation.method} ${operation.path}`)
    if (!validate(parsed)) fail(validate.errors)
    return
  }
  errorValidator ??= ajv.compile(jsonSchema(errorEnvelopeSchema()))
  if (!errorValidator(parsed)) fail(errorValidator.errors)
}

/** Answers are checked after the file's tests (kept out of their time limits), each once. */
const seen: Array<ObservedAnswer> = []

export const installContractCheck = (): void => {
  observeAnswers((a) => seen.push(a))
  afterAll(() => {
    for (const a of seen.splice(0)) check(a)
    if (violations.length > 0)
      throw new Error(`answers outside their OpenAPI document:\n${JSON.stringify(violations.slice(0, 5), null, 1)}`)
  })
}
