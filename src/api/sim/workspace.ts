// Control plane: vaults, API keys and approval policies (what the real service keeps in its dashboard).
import { allScopes } from "../../domain/api-key/index.js"
import type { VaultId } from "../../domain/shared/ids.js"
import { createApiKey, createVault, revokeApiKey, setApprovalPolicy } from "../../commands/workspace.js"
import { checkAttributes, checks, type FieldCheck } from "../body.js"
import { errors } from "../errors.js"
import { type SimRoute, simRoute } from "./common.js"
import { runCommand } from "../use-case.js"
import { API_VERSIONS } from "../envelope.js"
import { isIP } from "node:net"
import { vaultView } from "../presenters/vaults.js"

const arrayOf =
  (check: FieldCheck, options: { nullable?: boolean } = {}): FieldCheck =>
  (v) => {
    if (v === null && options.nullable) return undefined
    if (!Array.isArray(v)) return options.nullable ? "must be an array or null" : "must be an array"
    for (const x of v) {
      const m = check(x)
      if (m !== undefined) return `each entry ${m}`
    }
    return undefined
  }

const resourceId = checks.string({ pattern: /^[0-9a-f]{24}$/, patternMessage: "must be 24 lowercase hex characters" })
const ipOrCidr: FieldCheck = (v) => {
  if (typeof v !== "string") return "must be a string"
  const [addr, bits, more] = v.split("/")
  const family = isIP(addr ?? "")
  if (family === 0 || more !== undefined) return "must be an IP address or CIDR block"
  if (bits !== undefined && !(/^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))) return "has a bad prefix length"
  return undefined
}
const positiveNumber: FieldCheck = (v) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? undefined : "must be a positive number")

export const vaultSpec = {
  required: { name: checks.string({ min: 1, max: 100 }), type: checks.oneOf(["main", "test"]) },
  optional: { id: resourceId, color: checks.color(), backuped: checks.boolean() },
}

export const apiKeySpec = {
  optional: {
    key: checks.string({ min: 8, max: 128, pattern: /^[A-Za-z0-9_-]+$/, patternMessage: "must use letters, digits, _ and -" }),
    secret: checks.string({ min: 4, max: 512, pattern: /^[A-Za-z0-9+/]+={0,2}$/, patternMessage: "must be Base64" }),
    passphrase: checks.string({ min: 1, max: 256 }),
    name: checks.string({ min: 1, max: 100 }),
    scopes: arrayOf(checks.oneOf(allScopes)),
    vaultIds: arrayOf(resourceId, { nullable: true }),
    networkTypes: arrayOf(checks.oneOf(["main", "test"])),
    ipAllowlist: arrayOf(ipOrCidr, { nullable: true }),
    plan: (v: unknown) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return "must be an object"
      const p = v as { mainnets?: unknown; endpoints?: unknown }
      if (p.mainnets !== undefined && typeof p.mainnets !== "boolean") return "mainnets must be a boolean"
      if (p.endpoints !== undefined && p.endpoints !== "all" && arrayOf(checks.string({ min: 1 }))(p.endpoints) !== undefined)
        return 'endpoints must be "all" or an array of operation ids'
      return undefined
    },
    apiVersion: checks.oneOf(API_VERSIONS),
    activeFrom: (v: unknown) =>
      v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0) ? undefined : "must be UNIX seconds or null",
    rateLimit: (v: unknown) => {
      if (typeof v !== "object" || v === null) return "must be an object"
      const r = v as { perSecond?: unknown; burst?: unknown }
      return positiveNumber(r.perSecond) ?? positiveNumber(r.burst)
    },
  },
}

export const workspaceRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "POST",
    path: "/_sim/vaults",
    handle: async ({ body }, deps) => {
      const bad = checkAttributes(body, vaultSpec, errors.extraBodyAttributes)
      if (bad !== undefined) return bad
      const r = await runCommand(deps, createVault(body as never))
      if ("code" in r) return r
      const vault = deps.sim.models.workspace.vaultsById.get(r.state._tag === "Active" ? r.state.profile.vaultId : "")!
      return { status: 201, body: vaultView(vault, undefined) }
    },
  },
  {
    method: "PUT",
    path: "/_sim/vaults/:vaultId/approval-policy",
    handle: async ({ params, body }, deps) => {
      const bad = checkAttributes(
        body,
        {
          required: { mode: checks.oneOf(["auto", "manual"]) },
          optional: { levels: (v) => (v === 1 || v === 2 ? undefined : "must be 1 or 2") },
        },
        errors.extraBodyAttributes,
      )
      if (bad !== undefined) return bad
      const levels = (body.levels ?? 1) as 1 | 2
      const r = await runCommand(deps, setApprovalPolicy(params.vaultId as VaultId, body.mode as "auto" | "manual", levels))
      if ("code" in r) return r
      return { status: 200, body: { vaultId: params.vaultId, mode: body.mode, levels } }
    },
  },
  {
    method: "POST",
    path: "/_sim/api-keys",
    handle: async ({ body }, deps) => {
      const bad = checkAttributes(body, apiKeySpec, errors.extraBodyAttributes)
      if (bad !== undefined) return bad
      const r = await runCommand(deps, createApiKey(body as never))
      if ("code" in r) return r
      const { passphraseHash: _h, passphraseSalt: _s, ...shown } = r.grant
      return { status: 201, body: { ...shown, passphrase: r.passphrase } }
    },
  },
  simRoute({
    method: "DELETE",
    path: "/_sim/api-keys/:key",
    handle: async ({ params }, deps) => {
      const r = await runCommand(deps, revokeApiKey(params.key))
      if ("code" in r) return r
      return { status: 200, body: { key: params.key, revoked: true } }
    },
  }),
]
