// The vault and account a request names, in DESIGN.md's order: a vault the key cannot see is 403 from 2026-03-20
// on (404 before), an unknown account 404, a network of the other type than the vault's 400. The one place where
// a request checks that a vault or account exists, and where a vault's default account (its id is the vault's)
// counts as one of its accounts.
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { NetworkInfo } from "../../domain/chains/index.js"
import { accountKey } from "../../domain/vault-account/index.js"
import type { AsOf } from "../../projections/projection.js"
import type { VaultRecord } from "../../projections/workspace.js"
import type { ApiDeps } from "../deps.js"
import { ApiError, errors } from "../errors.js"

/** A vault that does not exist or that the key cannot see: 404 until 2025-09-23, 403 from 2026-03-20 on. */
export const unknownVault = (version: ApiVersion): ApiError => errors.unknownVault(version)

/** 400 network_not_allowed_for_vault: the network `attribute` names is of the other type than the vault's. */
export const networkNotAllowed = (vault: VaultRecord, n: NetworkInfo, attribute: string): ApiError =>
  new ApiError(400, "network_not_allowed_for_vault", `A ${vault.profile.type} vault cannot use ${n.blockchain}/${n.network}.`, [
    { attribute, message: "is on a network that does not match the vault's type" },
  ])

/**
 * The vault `vaultId` at `asOf`, when it uses networks of `n`'s type: `missing` when it does not exist (each
 * generation's answer, `unknownVault(version)` or the 2024 404), else 400 on `attribute` for the other type.
 */
export const vaultOn = (
  deps: ApiDeps,
  vaultId: string,
  n: NetworkInfo,
  attribute: string,
  missing: ApiError,
  asOf: AsOf = undefined,
): VaultRecord | ApiError => {
  const vault = deps.sim.models.workspace.vault(vaultId, asOf)
  if (vault === undefined) return missing
  return vault.profile.type === n.networkType ? vault : networkNotAllowed(vault, n, attribute)
}

/** Whether the vault has that account at `asOf` (its default account included): a lookup, whatever its size. */
export const hasAccount = (deps: ApiDeps, vaultId: string, vaultAccountId: string, asOf: AsOf): boolean =>
  accountKey(vaultId, vaultAccountId) === null
    ? deps.sim.models.workspace.vault(vaultId, asOf) !== undefined
    : deps.sim.models.holdings.account(vaultAccountId, asOf)?.vaultId === vaultId
