// Lists of a union's members that the compiler holds to the union: each is written as a record over the union, so
// a member left out of the record, or a key that is no member, fails to compile.

/** Every member of `K`, in the record's order: `everyMember<Kind>({ a: true, b: true })`. */
export const everyMember = <K extends string>(members: Record<K, true>): ReadonlyArray<K> => Object.keys(members) as Array<K>

/**
 * The members of `K` a record marks true. Every member is marked, true or false, so a member added to the union
 * must be placed on one side or the other.
 */
export const membersMarked = <K extends string>(marks: Record<K, boolean>): ReadonlySet<K> =>
  new Set((Object.keys(marks) as Array<K>).filter((k) => marks[k]))
