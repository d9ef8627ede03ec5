// API key evolve: total and quiet.
import { absurd } from "../shared/decider.js"
import type { ApiKeyEvent } from "./events.js"
import type { ApiKeyState } from "./state.js"

export const evolve = (s: ApiKeyState, e: ApiKeyEvent): ApiKeyState => {
  switch (e.type) {
    case "ApiKeyCreated": {
      if (s._tag !== "Absent") return s
      const { at: _at, ...grant } = e.data
      return { _tag: "Active", grant }
    }
    case "ApiKeyRevoked":
      return s._tag === "Active" ? { _tag: "Revoked", grant: s.grant } : s
    default:
      return absurd(e)
  }
}
