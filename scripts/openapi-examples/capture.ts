// The examples of every version's document: each version's scenario run on a simulator of its own (world.ts).
// The same seed, the same frozen clock and the same calls give the same ids and times: two runs, the same bytes.
import type { Examples } from "../../src/api/openapi/examples.js"
import type { ApiVersion } from "../../src/domain/api-key/index.js"
import { steps2024, steps2025 } from "./steps.js"
import { steps2026 } from "./steps-2026.js"
import { startWorld, type World } from "./world.js"

const SCENARIOS: Readonly<Record<ApiVersion, (w: World) => Promise<void>>> = {
  "2024-05-09": steps2024,
  "2025-09-23": steps2025,
  "2026-03-20": steps2026,
}

export const captureExamples = async (): Promise<Examples> => {
  const out: Record<string, Examples[string]> = {}
  for (const [version, steps] of Object.entries(SCENARIOS)) {
    const w = await startWorld(version as ApiVersion)
    try {
      await steps(w)
      out[version] = w.examples()
    } finally {
      await w.close()
    }
  }
  return out
}
