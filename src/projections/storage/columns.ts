// Columns for read models that hold a row per transfer or record: growable typed arrays, and tables of interned
// strings (packed a byte per character, with a hash index in typed arrays, when a checkpoint is written). A model built
// of these holds a handful of buffers instead of an object per row, so a checkpoint saves and loads them as whole
// buffers and a rebuild appends numbers and references instead of allocating objects.
//
// The columns of numbers are in number-columns.ts, the tables of strings in string-table.ts; this module names them
// together, for the models.
import { IntColumn, NumberColumn, RowByString } from "./number-columns.js"
import { StringTable } from "./string-table.js"

export { IntColumn, NumberColumn, RowByString, StringTable }

/** Compacts every column held in a field of `holder` (a model's rows). */
export const compactColumns = (holder: object): void => {
  for (const v of Object.values(holder)) if (v instanceof IntColumn || v instanceof NumberColumn || v instanceof StringTable) v.compact()
}
