// Examples in a version's document: for each operation, the request body and the answer of a real run of the
// simulator (the scripted scenario `npm run build:openapi` runs: scripts/openapi-examples/), and one real refusal.
// They are kept in dist/openapi/examples.json and merged into the document as each media type's `example`.
import type { JsonObject } from "../body.js"

export interface CapturedAnswer {
  readonly status: number
  readonly body: unknown
}

export interface OperationExample {
  /** The body sent; absent for an operation without one. */
  readonly request?: unknown
  /** Its success answer. */
  readonly answer: CapturedAnswer
  /** A refusal of the same operation. */
  readonly error?: CapturedAnswer
}

/** Per version, per operation id. */
export type Examples = Readonly<Record<string, Readonly<Record<string, OperationExample>>>>

const RESPONSES = "#/components/responses/"

type Media = { content?: Record<string, Record<string, unknown>> }

const withExample = <T extends Media>(part: T | undefined, example: unknown): T | undefined => {
  const json = part?.content?.["application/json"]
  if (part === undefined || json === undefined) return part
  return { ...part, content: { ...part.content, "application/json": { ...json, example } } }
}

/** The document with each operation's examples (an operation the run did not reach keeps none). */
export const withExamples = (document: JsonObject, examples: Readonly<Record<string, OperationExample>> | undefined): JsonObject => {
  if (examples === undefined) return document
  const shared = ((document.components as JsonObject | undefined)?.responses ?? {}) as Record<string, Media>
  const resolve = (part: (Media & { $ref?: unknown }) | undefined): Media | undefined =>
    typeof part?.$ref === "string" && part.$ref.startsWith(RESPONSES) ? shared[part.$ref.slice(RESPONSES.length)] : part
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Record<string, unknown>>>)) {
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, op]) => {
        const example = examples[op.operationId as string]
        if (example === undefined) return [method, op]
        const responses = { ...(op.responses as Record<string, Media>) }
        for (const answer of [example.answer, example.error]) {
          // A shared answer (components.responses) is written out in the operation that shows it.
          const response = answer !== undefined ? withExample(resolve(responses[String(answer.status)]), answer.body) : undefined
          if (response !== undefined) responses[String(answer!.status)] = response
        }
        const requestBody = example.request === undefined ? op.requestBody : withExample(op.requestBody as Media, example.request)
        return [method, { ...op, ...(requestBody !== undefined ? { requestBody } : {}), responses }]
      }),
    )
  }
  // A shared answer only the operation showing it used is written out there: it leaves the components.
  const text = JSON.stringify(paths)
  const used = Object.entries(shared).filter(([name]) => text.includes(`"${RESPONSES}${name}"`))
  return { ...document, paths, components: { ...(document.components as JsonObject), responses: Object.fromEntries(used) } }
}
