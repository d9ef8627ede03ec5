// The transaction request status machine as the spec states it (wire strings), written here independently of
// src/domain so that the properties check the product against the spec rather than against itself.
export type WireStatus =
  | "created"
  | "await-approval"
  | "await-approval-l2"
  | "pending"
  | "prepared"
  | "signed"
  | "broadcasted"
  | "mined"
  | "mined-with-errors"
  | "success"
  | "failed"
  | "rejected"

/** Direct moves: approvals may be skipped (auto policy) or single-level; failures from pending..broadcasted. */
export const LEGAL: { readonly [S in WireStatus]: ReadonlyArray<WireStatus> } = {
  created: ["await-approval", "pending"],
  "await-approval": ["await-approval-l2", "pending", "rejected"],
  "await-approval-l2": ["pending", "rejected"],
  pending: ["prepared", "failed"],
  prepared: ["signed", "failed"],
  signed: ["broadcasted", "failed"],
  broadcasted: ["mined", "mined-with-errors", "failed"],
  mined: ["success"],
  "mined-with-errors": [],
  success: [],
  failed: [],
  rejected: [],
}

export const TERMINAL: ReadonlySet<WireStatus> = new Set(["success", "failed", "rejected", "mined-with-errors"])

/** The statuses a request may first be seen in: created (auto policy) or awaiting its first approval. */
export const INITIAL: ReadonlySet<WireStatus> = new Set(["created", "await-approval"])

/** Whether `to` can follow `from` through zero or more legal moves (several may happen within one call). */
export const reachable = (from: WireStatus, to: WireStatus): boolean => {
  const seen = new Set<WireStatus>([from])
  const queue: Array<WireStatus> = [from]
  for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
    if (s === to) return true
    for (const next of LEGAL[s]) if (!seen.has(next)) queue.push(next), seen.add(next)
  }
  return false
}

/** Domain state tags → wire strings (the spec's twelve). */
export const wireOf = {
  Created: "created",
  AwaitingApproval: "await-approval",
  AwaitingApprovalL2: "await-approval-l2",
  Pending: "pending",
  Prepared: "prepared",
  Signed: "signed",
  Broadcasted: "broadcasted",
  Mined: "mined",
  MinedWithErrors: "mined-with-errors",
  Success: "success",
  Failed: "failed",
  Rejected: "rejected",
} as const satisfies Record<string, WireStatus>
