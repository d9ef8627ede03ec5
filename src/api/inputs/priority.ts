// The fee priority of a transfer, and the chains where it may be left out.
import type { NetworkInfo } from "../../domain/chains/index.js"
import { checks } from "../body.js"

/** `feePriority`: one of the spec's three. */
export const priority = checks.oneOf(["slow", "standard", "fast"])

/** Chains whose fee does not depend on a priority: the 2026 pages make `feePriority` optional there. */
export const priorityOptional = (n: NetworkInfo): boolean => n.family === "tron" || n.family === "solana"
