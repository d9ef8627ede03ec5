// API key aggregate: stream `apiKey-<key>`.
import type { Decider } from "../shared/decider.js"
import type { ApiKeyCommand } from "./commands.js"
import { decide } from "./decide.js"
import type { ApiKeyEvent } from "./events.js"
import { evolve } from "./evolve.js"
import type { ApiKeyError, ApiKeyState } from "./state.js"

export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"
export * from "./versions.js"

export const apiKeyStream = (key: string) => `apiKey-${key}`

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState, ApiKeyError> = {
  initialState: { _tag: "Absent" },
  decide,
  evolve,
  isTerminal: (s) => s._tag === "Revoked",
}
