// Why vault state is folded in place: N address events folded into one Map, in place vs copied per event (as a
// persistent, copy-on-write state would). `npx tsx scripts/bench/fold-in-place.ts [N]`; not in the runner (the copy takes a minute at 10,000).
const N = Number(process.argv[2] ?? 5000)
type Rec = { address: string; index: number }
const events = Array.from({ length: N }, (_, i) => ({ address: `0x${i.toString(16).padStart(40, "0")}`, index: i }))
const inPlace = () => {
  const m = new Map<string, Rec>()
  for (const e of events) m.set(e.address, e)
  return m.size
}
const copying = () => {
  let m = new Map<string, Rec>()
  for (const e of events) {
    m = new Map(m)
    m.set(e.address, e)
  }
  return m.size
}
for (const [name, f] of [
  ["in place", inPlace],
  ["copy per event", copying],
] as const) {
  f()
  const t0 = performance.now()
  f()
  const ms = performance.now() - t0
  console.log(`${name}: ${N} events in ${ms.toFixed(1)} ms (${Math.round(N / (ms / 1000)).toLocaleString("en")} events/s)`)
}
