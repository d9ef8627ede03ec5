// API key decider: a key is created once and revoked at most once.
import { absurd, accept, reject, type Decision } from "../shared/decider.js"
import type { ApiKeyCommand } from "./commands.js"
import type { ApiKeyEvent } from "./events.js"
import type { ApiKeyError, ApiKeyState } from "./state.js"

export const decide = (c: ApiKeyCommand, s: ApiKeyState): Decision<ApiKeyEvent, ApiKeyError> => {
  switch (c.type) {
    case "CreateApiKey":
      return s._tag === "Absent"
        ? accept({ type: "ApiKeyCreated", data: { ...c.grant, at: c.now } })
        : reject({ _tag: "ApiKeyAlreadyExists", key: c.grant.key })
    case "RevokeApiKey":
      return s._tag === "Active"
        ? accept({ type: "ApiKeyRevoked", data: { key: s.grant.key, at: c.now } })
        : reject({ _tag: "ApiKeyNotFound", key: s._tag === "Revoked" ? s.grant.key : "" })
    default:
      return absurd(c)
  }
}
