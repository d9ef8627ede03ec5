// Names shared by the operations and the consistency middleware.
export const POSITION_HEADER = "x-sim-position"
export const MIN_POSITION_HEADER = "x-sim-min-position"
/** Context flag: the answer already carries POSITION_HEADER (the middleware then leaves its headers alone). */
export const POSITION_SENT = "custody-sim/positionSent"
