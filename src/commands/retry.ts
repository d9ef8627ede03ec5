// Commands read a stream, decide and append at the revision read; a concurrent append makes them start over.
export const retryOnConflict = { times: 10, while: (e: { readonly _tag: string }) => e._tag === "WrongExpectedVersion" } as const
