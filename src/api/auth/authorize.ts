// Authorization (403), in the order DESIGN.md gives: IP, scope, plan, network, vault.
import { BlockList, isIP } from "node:net"
import type { Scope } from "../../domain/api-key/index.js"
import type { ApiKeyRecord } from "../../projections/workspace.js"
import { errors, type ApiError } from "../errors.js"

export interface AccessRequest {
  readonly operationId: string
  readonly scope: Scope
  readonly clientIp: string | undefined
  /** The network type the call touches, when the path or the vault tells it. */
  readonly networkType: "main" | "test" | undefined
  /** The vault id in the path, when there is one. */
  readonly vaultId: string | undefined
}

const allowlist = (allowlists: WeakMap<ReadonlyArray<string>, BlockList>, entries: ReadonlyArray<string>): BlockList => {
  let list = allowlists.get(entries)
  if (list === undefined) {
    list = new BlockList()
    for (const entry of entries) {
      const [addr, bits] = entry.split("/")
      const family = isIP(addr ?? "") === 6 ? "ipv6" : "ipv4"
      if (bits !== undefined) list.addSubnet(addr!, Number(bits), family)
      else list.addAddress(addr!, family)
    }
    allowlists.set(entries, list)
  }
  return list
}

const ipAllowed = (
  allowlists: WeakMap<ReadonlyArray<string>, BlockList>,
  entries: ReadonlyArray<string>,
  ip: string | undefined,
): boolean => {
  if (ip === undefined) return false
  const v4 = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
  const family = isIP(v4) === 6 ? "ipv6" : "ipv4"
  return allowlist(allowlists, entries).check(v4, family)
}

const VAULT_ID = /^[0-9a-f]{24}$/

/** An authorizer keeps the parsed allowlists of the keys it has seen. */
export const makeAuthorizer = () => {
  const allowlists = new WeakMap<ReadonlyArray<string>, BlockList>()
  return (key: ApiKeyRecord, req: AccessRequest): ApiError | undefined => authorize(allowlists, key, req)
}

const authorize = (allowlists: WeakMap<ReadonlyArray<string>, BlockList>, key: ApiKeyRecord, req: AccessRequest): ApiError | undefined => {
  const g = key.grant
  if (g.ipAllowlist !== null && !ipAllowed(allowlists, g.ipAllowlist, req.clientIp))
    return errors.ipNotWhitelisted(req.clientIp ?? "unknown")
  if (!g.scopes.includes(req.scope)) return errors.endpointNotAllowedForApiKey()
  if (g.plan.endpoints !== "all" && !g.plan.endpoints.includes(req.operationId)) return errors.endpointNotAllowedForPlan()
  if (req.networkType === "main" && !g.plan.mainnets) return errors.mainnetsNotAllowedForPlan()
  if (req.networkType !== undefined && !g.networkTypes.includes(req.networkType))
    return req.networkType === "main" ? errors.mainnetNotAllowedForKey() : errors.testnetNotAllowedForKey()
  if (req.vaultId !== undefined && (!VAULT_ID.test(req.vaultId) || (g.vaultIds !== null && !g.vaultIds.includes(req.vaultId as never))))
    return errors.notAllowedForWallet()
  return undefined
}
