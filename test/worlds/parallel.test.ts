// 16 workers at once, each in a world of its own on one server, run the same scripted flow: every world ends as the
// flow run alone leaves a world (the same ids, addresses and audit digest).
import { afterAll, beforeAll, expect, it } from "vitest"
import { runFlow } from "../support/worlds-flow.js"
import { newWorld, startWorldsServer, type WorldsServer } from "../support/worlds-server.js"

const fixture = {
  seed: "parallel",
  vaults: [
    { name: "Test vault", type: "test" as const },
    { name: "Main vault", type: "main" as const },
  ],
  apiKeys: [{ name: "worker", apiVersion: "2024-05-09" }],
}

let s: WorldsServer
beforeAll(async () => {
  s = await startWorldsServer()
})
afterAll(() => s.close())

it("16 workers in 16 worlds end with the digest of the flow run alone", async () => {
  const alone = await runFlow(await newWorld(s, { fixture }))
  const workers = await Promise.all(Array.from({ length: 16 }, () => newWorld(s, { fixture })))
  const results = await Promise.all(workers.map((w) => runFlow(w)))
  expect(results).toHaveLength(16)
  for (const r of results) expect(r).toEqual(alone)
  expect(new Set(workers.map((w) => w.key.key)).size).toBe(16)
}, 60_000) // 17 flows of a dozen requests each on a loaded machine
