// Success and error envelopes: apiVersion, requestId, context (echoed when sent), then data or error.
import type { ApiError } from "./errors.js"

export { API_VERSIONS } from "../domain/api-key/versions.js"

export interface Page<T> {
  readonly limit: number
  readonly startingAfter?: string
  readonly hasMore: boolean
  readonly items: ReadonlyArray<T>
}

export const errorBody = (apiVersion: string, requestId: string, context: string | undefined, e: ApiError): string => {
  const error = { code: e.code, message: e.message, details: e.details }
  return JSON.stringify(context === undefined ? { apiVersion, requestId, error } : { apiVersion, requestId, context, error })
}
