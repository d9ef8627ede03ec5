// Signed GET /vaults with the request log on vs off: the same app over the same simulator, one server with
// the log as `custody-sim serve` has it (text lines, written a batch per turn; here to /dev/null, so the figure
// is the log's own CPU, not a terminal's). Budget (issue): logging costs at most 10% of throughput.
import { openSync, writeSync } from "node:fs"
import { loggedResponse, type LogFormat } from "../../src/cli/request-log.js"
import { httpVsBareHono } from "./lib/http.js"
import { startBenchSimulator } from "./lib/simulator.js"
import { ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

const logged = (format: LogFormat): Benchmark => ({
  name: `request-log-${format}`,
  description: `signed GET /vaults req/s with the ${format} request log on vs off (same app, same simulator)`,
  budget: ratioAtLeast(0.9),
  run: async (options): Promise<Measurement> => {
    const bench = await startBenchSimulator()
    const sink = openSync("/dev/null", "w")
    try {
      return await httpVsBareHono({
        ...options,
        subject: bench.app.fetch,
        subjectServer: { ServerResponse: loggedResponse({ format, write: (chunk) => void writeSync(sink, chunk) }) },
        baseline: bench.app.fetch,
        request: { method: "GET", url: "/vaults" },
        sign: bench.creds,
      })
    } finally {
      await bench.close()
    }
  },
})

export const requestLogText = logged("text")
export const requestLogJson = logged("json")
