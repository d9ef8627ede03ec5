// The transaction ids a chain holds, as a persistent set: levels of frozen Sets merged like a binary counter, so
// adding ids costs O(log n) amortised and no earlier state changes (the chain decider folds states it may drop).
export type KnownIds = ReadonlyArray<ReadonlySet<string>>

export const NO_IDS: KnownIds = []

export const hasId = (known: KnownIds, id: string): boolean => {
  for (const level of known) if (level.has(id)) return true
  return false
}

export const withIds = (known: KnownIds, ids: Iterable<string>): KnownIds => {
  const top = new Set(ids)
  const levels = [...known]
  // Levels shrink from first to last; a new one swallows every level no larger than itself.
  while (levels.length > 0 && levels[levels.length - 1]!.size <= top.size) for (const id of levels.pop()!) top.add(id)
  levels.push(top)
  return levels
}
