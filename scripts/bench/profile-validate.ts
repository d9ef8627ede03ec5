// A CPU profile of utxo-transfer/validate as its benchmark runs it (50 named inputs, 150 recipients, in process):
// prints the answers/s, the CPU per answer and the top frames of the timed answers; the whole profile goes to --out.
//
//   npx tsx scripts/bench/profile-validate.ts [--top 25] [--out validate.cpuprofile]
//
// The script runs a tsc-compiled copy of itself (lib/cpu-profile.ts says why).
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { parseArgs } from "node:util"
import { count } from "./lib/flags.js"
import { runCompiled, summarise, type Profile } from "./lib/cpu-profile.js"

const args = process.argv.slice(2)
const { values } = parseArgs({
  args,
  options: { top: { type: "string", default: "25" }, out: { type: "string", default: "" }, child: { type: "boolean", default: false } },
})
const top = count("top", values.top)
const out = values.out

const child = async () => {
  const { validateInProcess } = await import("./utxo-transfer-validate.js")
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 200 })
  // Started once the world is set up and warm: the shares are those of the timed answers alone.
  const r = await validateInProcess({ quick: false, log: () => {} }, () => session.post("Profiler.start"))
  const { profile } = (await session.post("Profiler.stop")) as { profile: Profile }
  if (out !== "") writeFileSync(out, JSON.stringify(profile))
  console.log(`utxo-transfer/validate: ${r.subject.toFixed(0)} ${r.unit} with the profiler on; ${r.note}\n`)
  console.log(summarise(profile, top))
}

if (values.child) await child()
else runCompiled("profile-validate", args, out)
