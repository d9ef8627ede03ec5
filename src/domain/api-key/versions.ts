// The API versions the service answers in, oldest first. A key is pinned to one; a request may name another.
export const API_VERSIONS = ["2024-05-09", "2025-09-23", "2026-03-20"] as const

export type ApiVersion = (typeof API_VERSIONS)[number]

export const OLDEST_API_VERSION: ApiVersion = API_VERSIONS[0]
export const NEWEST_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!

export const isApiVersion = (s: string | undefined): s is ApiVersion => (API_VERSIONS as ReadonlyArray<string | undefined>).includes(s)

/** The versions from `first` on. */
export const since = (first: ApiVersion): ReadonlyArray<ApiVersion> => API_VERSIONS.slice(API_VERSIONS.indexOf(first))

/** The versions before `last` (exclusive): an operation a later version replaced. */
export const until = (last: ApiVersion): ReadonlyArray<ApiVersion> => API_VERSIONS.slice(0, API_VERSIONS.indexOf(last))
