// Benchmarks owned by other modules in this folder, wrapped for the runner: absolute budgets (no in-run
// baseline), and skipped with a note when their module is absent.
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { median } from "./lib/stats.js"
import { absoluteAtLeast, skip, type Benchmark, type Measurement } from "./lib/types.js"

/** Imports a sibling module by a computed specifier (so its absence is not a type error), or undefined. */
const importIfPresent = async <T>(file: string): Promise<T | undefined> => {
  const url = new URL(file, import.meta.url)
  return existsSync(fileURLToPath(url)) ? ((await import(url.href)) as T) : undefined
}

type AddressDerivationModule = {
  benchAddressDerivation?: (count?: number) => Promise<ReadonlyArray<{ family: string; perSecond: number }>>
}
type EsdbAppendsModule = { benchEsdbAppends?: (options?: { durationMs?: number }) => Promise<{ eventsPerSecond: number; events: number }> }

export const addressDerivation: Benchmark = {
  name: "address-derivation",
  description: "derived addresses/s per chain family (scripts/bench/address-derivation.ts); ABSOLUTE budget, no baseline",
  budget: absoluteAtLeast(2_000, "addresses/s"),
  run: async (options) => {
    const mod = await importIfPresent<AddressDerivationModule>("./address-derivation.ts")
    if (mod?.benchAddressDerivation === undefined) return skip("scripts/bench/address-derivation.ts (benchAddressDerivation) is absent")
    // Absolute figures on a shared machine: the median of 3 runs (1 when quick) per family.
    const runs = options.quick ? 1 : 3
    const byFamily = new Map<string, Array<number>>()
    for (let r = 0; r < runs; r++) {
      for (const { family, perSecond } of await mod.benchAddressDerivation(options.quick ? 300 : undefined)) {
        byFamily.set(family, [...(byFamily.get(family) ?? []), perSecond])
      }
      options.log(`  run ${r + 1}/${runs}: ${[...byFamily].map(([f, xs]) => `${f} ${xs[xs.length - 1]}`).join(", ")}`)
    }
    return [...byFamily].map(
      ([family, xs]): Measurement => ({
        label: family,
        subject: median(xs),
        unit: "addresses/s",
        note: `median of ${runs} run(s)`,
        samples: { subject: xs },
      }),
    )
  },
}

export const esdbAppends: Benchmark = {
  name: "esdb-appends",
  description:
    "100-event batch appends (events/s) through the esdb adapter to the gRPC double (scripts/bench/esdb-appends.ts); ABSOLUTE budget",
  budget: absoluteAtLeast(5_000, "events/s"),
  run: async (options) => {
    const mod = await importIfPresent<EsdbAppendsModule>("./esdb-appends.ts")
    if (mod?.benchEsdbAppends === undefined) return skip("scripts/bench/esdb-appends.ts (benchEsdbAppends) is absent")
    const r = await mod.benchEsdbAppends({ durationMs: options.quick ? 1_000 : 3_000 })
    return {
      subject: r.eventsPerSecond,
      unit: "events/s",
      note: `${r.events.toLocaleString("en-US")} events, 8 writers, batches of 100, in-process double`,
    }
  },
}
