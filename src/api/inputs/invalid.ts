// The one error row of a request value that does not decode: 400 invalid_data naming the attribute.
import { type ApiError, errors } from "../errors.js"

/** 400 invalid_data with one detail: `attribute` and what is wrong with it. */
export const invalidField = (attribute: string, message: string): ApiError => errors.invalidData([{ attribute, message }])
