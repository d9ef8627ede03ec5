// The vault and account a request names, in DESIGN.md's order: a vault the key cannot see is 403 from 2026-03-20
// on (404 before), an unknown account 404, a network of the other type than the vault's 400. The one place where
// a request checks that a vault or account exists, and where a vault's default account (its id is the vault's)
// counts as one of its accounts.
import type { ApiVersion } from "../../domain/api-key/index.js"
import { networksOf, type NetworkInfo } from "../../domain/chains/index.js"
import { accountIdOf, accountKey } from "../../domain/vault-account/index.js"
import type { ApiDeps } from "../deps.js"
import type { AddressView, AsOf, VaultRecord } from "../reads.js"
import { ApiError, errors } from "../errors.js"
import { invalidField } from "./invalid.js"

/** A vault that does not exist or that the key cannot see: 404 until 2025-09-23, 403 from 2026-03-20 on. */
export const unknownVault = (version: ApiVersion): ApiError => errors.unknownVault(version)

/** 400 network_not_allowed_for_vault: the network `attribute` names is of the other type than the vault's. */
export const networkNotAllowed = (vault: VaultRecord, n: NetworkInfo, attribute: string): ApiError =>
  new ApiError(400, "network_not_allowed_for_vault", `A ${vault.profile.type} vault cannot use ${n.blockchain}/${n.network}.`, [
    { attribute, message: "is on a network that does not match the vault's type" },
  ])

/** The vault `vaultId` at `asOf`, or `missing` (each generation's answer) when it does not exist then. */
export const vaultAt = (deps: ApiDeps, vaultId: string, missing: ApiError, asOf: AsOf = undefined): VaultRecord | ApiError =>
  deps.reads.vault(vaultId, asOf) ?? missing

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
  const vault = vaultAt(deps, vaultId, missing, asOf)
  if (vault instanceof ApiError) return vault
  return vault.profile.type === n.networkType ? vault : networkNotAllowed(vault, n, attribute)
}

/** The vault's network on `blockchain` (a test vault uses the blockchain's test network); undefined when it has none. */
export const vaultNetworkOn = (vault: VaultRecord, blockchain: string): NetworkInfo | undefined =>
  networksOf(vault.profile.type).find((n) => n.blockchain === blockchain)

/** The address `address` on `n` at `asOf` when the vault holds it: the one rule for "an address of this vault". */
export const addressIn = (
  deps: ApiDeps,
  vaultId: string,
  n: { readonly blockchain: string; readonly network: string },
  address: string,
  asOf: AsOf,
): AddressView | undefined => {
  const a = deps.reads.address(n.blockchain, n.network, address, asOf)
  return a !== undefined && a.facts.vaultId === vaultId ? a : undefined
}

/**
 * The vault's address `address` on every chain of the vault's network type that knows it (EVM addresses repeat
 * across chains), on `blockchain` only when it is named.
 */
export const addressesOfVault = (
  deps: ApiDeps,
  vault: VaultRecord,
  address: string,
  blockchain: string | undefined,
  asOf: AsOf,
): ReadonlyArray<AddressView> =>
  networksOf(vault.profile.type).flatMap((n) => {
    if (blockchain !== undefined && n.blockchain !== blockchain) return []
    const a = addressIn(deps, vault.profile.vaultId, n, address, asOf)
    return a === undefined ? [] : [a]
  })

/** Whether the vault has that account at `asOf` (its default account included): a lookup, whatever its size. */
export const hasAccount = (deps: ApiDeps, vaultId: string, vaultAccountId: string, asOf: AsOf): boolean =>
  accountKey(vaultId, vaultAccountId) === null
    ? deps.reads.vault(vaultId, asOf) !== undefined
    : deps.reads.account(vaultAccountId, asOf)?.vaultId === vaultId

/** A transfer's sender: its address as the read model spells it, and the vault account that holds it. */
export interface Sender {
  readonly address: string
  readonly vaultAccountId: string
}

/**
 * The sender `fromAddress` (the request's `attribute`) in the vault, the account first (single, gas-sponsorship and
 * batch transfers): a named account the vault does not have is 404 vault account, an address outside it 404
 * "<attribute> in this vault account"; with no account named, an address outside the vault is 404 "<attribute> in
 * this vault".
 */
export const senderIn = (
  deps: ApiDeps,
  vaultId: string,
  n: NetworkInfo,
  fromAddress: string,
  vaultAccountId: string | undefined,
  attribute: string,
): Sender | ApiError => {
  const from = addressIn(deps, vaultId, n, fromAddress, undefined)
  if (vaultAccountId !== undefined) {
    if (!hasAccount(deps, vaultId, vaultAccountId, undefined)) return errors.resourceNotFound("vault account")
    if (from === undefined || accountIdOf(from.facts) !== vaultAccountId)
      return errors.resourceNotFound(`${attribute} in this vault account`)
  } else if (from === undefined) return errors.resourceNotFound(`${attribute} in this vault`)
  return { address: from.facts.address, vaultAccountId: accountIdOf(from.facts) }
}

/**
 * The sender `fromAddress` in the vault, the address first (a fee estimate): outside the vault 404 "fromAddress in
 * this vault"; a named account that is not its holder 404 "fromAddress in this vault account" when the vault has that
 * account, else 404 vault account.
 */
export const senderByAddress = (
  deps: ApiDeps,
  vaultId: string,
  n: NetworkInfo,
  fromAddress: string,
  vaultAccountId: string | undefined,
): Sender | ApiError => {
  const from = addressIn(deps, vaultId, n, fromAddress, undefined)
  if (from === undefined) return errors.resourceNotFound("fromAddress in this vault")
  const owner = accountIdOf(from.facts)
  if (vaultAccountId !== undefined && vaultAccountId !== owner)
    return hasAccount(deps, vaultId, vaultAccountId, undefined)
      ? errors.resourceNotFound("fromAddress in this vault account")
      : errors.resourceNotFound("vault account")
  return { address: from.facts.address, vaultAccountId: owner }
}

/**
 * The fee payer `feePayer` (the request's `attribute`): an address of the vault on `n` (404 "<attribute> address in
 * this vault on <chain>"), another than the sender's (400: the sender paying its own fee is a single transfer).
 */
export const feePayerIn = (
  deps: ApiDeps,
  vaultId: string,
  n: NetworkInfo,
  feePayer: string,
  attribute: string,
  sender: string,
  senderAttribute: string,
): string | ApiError => {
  const payer = addressIn(deps, vaultId, n, feePayer, undefined)
  if (payer === undefined) return errors.resourceNotFound(`${attribute} address in this vault on ${n.blockchain}/${n.network}`)
  if (payer.facts.address === sender)
    return invalidField(attribute, `must be another address than ${senderAttribute}: the sender paying its own fee is a single transfer`)
  return payer.facts.address
}
