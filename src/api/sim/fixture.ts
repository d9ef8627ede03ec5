// Fixtures (`serve --fixture`'s file, POST /_sim/worlds' `fixture`): `{ seed, adminToken, vaults: [...], apiKeys: [...],
// assets: [...] }`, checked as the control plane checks its bodies. A bad one throws an Error saying what is wrong.
import { checkAttributes, checks } from "../body.js"
import { errors } from "../errors.js"
import { apiKeySpec, vaultSpec } from "./workspace.js"
import type { Fixture } from "../../workspace/bootstrap.js"

export const checkFixture = (parsed: unknown): Fixture => {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("fixture: must be a JSON object")
  const f = parsed as Record<string, unknown>
  const top = checkAttributes(
    f,
    {
      optional: {
        seed: checks.string({ min: 1, max: 200 }),
        adminToken: checks.string({ min: 8, max: 200 }),
        vaults: (v) => (Array.isArray(v) ? undefined : "must be an array"),
        apiKeys: (v) => (Array.isArray(v) ? undefined : "must be an array"),
        assets: (v) => (Array.isArray(v) ? undefined : "must be an array"),
      },
    },
    errors.extraBodyAttributes,
  )
  if (top !== undefined) throw new Error(`fixture: ${top.message} ${JSON.stringify(top.details)}`)
  const each = (name: string, list: unknown, spec: Parameters<typeof checkAttributes>[1]) =>
    ((list as Array<Record<string, unknown>> | undefined) ?? []).forEach((x, i) => {
      const e = typeof x === "object" && x !== null ? checkAttributes(x, spec, errors.extraBodyAttributes) : errors.invalidBodyStructure()
      if (e !== undefined) throw new Error(`fixture: ${name}[${i}]: ${e.message} ${JSON.stringify(e.details)}`)
    })
  each("vaults", f.vaults, vaultSpec)
  each("apiKeys", f.apiKeys, apiKeySpec)
  each("assets", f.assets, {
    required: {
      assetId: checks.string({ min: 1, max: 100 }),
      blockchain: checks.string({ min: 1, max: 40 }),
      network: checks.string({ min: 1, max: 40 }),
    },
    optional: { symbol: checks.string({ min: 1, max: 20 }), contract: checks.string({ min: 1, max: 200 }) },
  })
  return f as Fixture
}
