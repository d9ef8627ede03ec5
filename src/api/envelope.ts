// Success and error envelopes: apiVersion, requestId, context (echoed when sent), then data or error.
import type { ApiError } from "./errors.js"

export const API_VERSIONS: ReadonlyArray<string> = ["2024-05-09"]

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
