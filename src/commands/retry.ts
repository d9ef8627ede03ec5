// Commands read a stream, decide and append at the revision read; a concurrent append makes them start over.
const lostRace = (e: unknown): boolean => typeof e === "object" && e !== null && (e as { readonly _tag?: unknown })._tag === "WrongExpectedVersion"

export const retryOnConflict = { times: 10, while: lostRace } as const
