// The import schemas: one per event type, derived from the event type declarations (the generated file is current),
// and each one lets its type's events through and refuses one with a field of the wrong kind, naming the field.
import { readFileSync } from "node:fs"
import { Arbitrary, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { generate, OUTPUT } from "../../../scripts/event-schemas.js"
import { ASSETS } from "../../../src/domain/chains/assets.js"
import { checkData } from "../../../src/event-log/check.js"
import { eventDataSchemas } from "../../../src/event-log/event-schemas.js"
import { knownEventTypes } from "../../../src/events/event-types.js"

const ASSET = ASSETS[0]!

const types = Object.keys(eventDataSchemas) as Array<keyof typeof eventDataSchemas>

/** A value of another JSON kind than `v`, which no field declared as `v`'s kind accepts. */
const wrongKind = (v: unknown): unknown =>
  typeof v === "string"
    ? 12345
    : typeof v === "number"
      ? "12345"
      : typeof v === "boolean"
        ? "yes"
        : Array.isArray(v)
          ? "a list"
          : v === null
            ? { not: "null" }
            : 42

/** What the types cannot say and the import also checks (check.ts's refinements): made to hold in the samples. */
const refinedSamples: Partial<Record<keyof typeof eventDataSchemas, (d: Record<string, unknown>) => Record<string, unknown>>> = {
  ApiKeyCreated: (d) => ({
    ...d,
    key: "key-1",
    secret: "c2VjcmV0LXNlY3JldC1zZWNyZXQ=",
    passphraseSalt: "salt",
    passphraseHash: "hash",
    rateLimit: { perSecond: 5, burst: 10 },
  }),
  ApiKeyRevoked: (d) => ({ ...d, key: "key-1" }),
}

const samples = (type: keyof typeof eventDataSchemas, n: number) =>
  Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(eventDataSchemas[type]), { count: n, seed: 20_261_127 })) as Promise<
    ReadonlyArray<Record<string, unknown>>
  >

describe("import schemas", () => {
  it("are those the event type declarations give (npm run event-schemas writes them)", { timeout: 180_000 }, () => {
    const written = readFileSync(new URL(`../../../${OUTPUT}`, import.meta.url), "utf8")
    expect(written === generate(), `${OUTPUT} is stale: run npm run event-schemas`).toBe(true)
  })

  it("cover every event type the simulator writes, and only those", () => {
    expect(new Set(types)).toEqual(knownEventTypes)
  })

  for (const type of types) {
    it(`${type}: its events pass; a field of the wrong kind is refused, naming the field`, async () => {
      const valid = await samples(type, 8)
      expect(valid.length).toBeGreaterThan(0)
      for (const data of valid) {
        // Amount fields hold base units, which the types call strings: make them integer strings. Asset ids name
        // an asset of the catalogue (the import refuses any other).
        const amounts = JSON.parse(JSON.stringify(data), (k, v) =>
          ["amount", "fee", "maxFee", "feeLimit"].includes(k) && typeof v === "string"
            ? "1000"
            : ["assetId", "feeAssetId"].includes(k) && typeof v === "string"
              ? ASSET.id
              : k === "assetIds" && Array.isArray(v)
                ? v.map(() => ASSET.id)
                : v,
        )
        const fixed = refinedSamples[type]?.(amounts) ?? amounts
        expect(checkData(type, fixed)).toBeUndefined()
        for (const key of Object.keys(fixed)) {
          const corrupted = { ...fixed, [key]: wrongKind(fixed[key]) }
          const reason = checkData(type, corrupted)
          expect(reason, `${type}.${key} = ${JSON.stringify(corrupted[key])}`).toMatch(new RegExp(`^${type} .*${key}`))
        }
      }
    })
  }
})
