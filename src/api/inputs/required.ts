// Attributes a body's spec leaves optional but a rule requires (an estimate's fields per transaction type, a
// method's own fields): checked after the spec's checks, in the order the rule names them.
import { type ApiError, errors } from "../errors.js"

/** `item` with `keys` present. */
type With<T, K extends keyof T> = T & { readonly [P in K]-?: Exclude<T[P], undefined> }

/** `item` when every attribute of `keys` is set, else 409 missing_required_attributes naming those that are not. */
export const requireAttributes = <T extends object, K extends keyof T & string>(item: T, keys: ReadonlyArray<K>): With<T, K> | ApiError => {
  const missing = keys.filter((k) => item[k] === undefined)
  // The cast is what the filter just checked: no attribute of `keys` is undefined.
  return missing.length > 0 ? errors.missingRequiredAttributes(missing) : (item as With<T, K>)
}
