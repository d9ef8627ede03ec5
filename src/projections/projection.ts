// What the read models share. They fold the global log in position order, mutated in place (O(1) per event on
// million-event logs), and keep per-key histories, so answering "as of" an earlier position never re-folds the log.

/** Position of the event in force at a point of the log: undefined means "now". */
export type AsOf = bigint | undefined
