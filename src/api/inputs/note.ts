// A request's note, as each generation of the endpoints bounds it.
import { checks } from "../body.js"

/** Up to 500 characters, possibly empty: the 2024-05-09 endpoints and the gas-sponsored ones. */
export const note = checks.string({ max: 500 })

/** From 2025-09-23 on `note` is required; the 2026 pages that state a length say 250 characters. */
export const requiredNote = checks.string({ min: 1, max: 250 })

/** Up to 250 characters, possibly empty: the 2026 UTXO, fee-estimate and contract-call endpoints. */
export const shortNote = checks.string({ max: 250 })
