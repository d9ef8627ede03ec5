// Which versions have an operation, said in words: the message of an operation asked at a version that has it
// not, and the endpoint table's column. The counterparts are the spec's version tables (custody-api-2026.md, the
// diff of #1–#21): what takes an operation's place where it is absent.
import { API_VERSIONS, type ApiVersion } from "../domain/api-key/index.js"
import { errors, type ApiError } from "./errors.js"

export interface VersionedOperation {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly versions?: ReadonlyArray<ApiVersion>
}

/** By operation id, the operations that do its work in the versions it is absent from, the first that exists wins. */
const counterparts: Readonly<Record<string, ReadonlyArray<string>>> = {
  listAddressAssets: ["listAddressAssetsAcrossChains"],
  listAddressAssetsAcrossChains: ["listAddressAssets"],
  getAddressBalance: ["listAddressAssetsAcrossChains", "listAddressAssets"],
  listAssetAddresses: ["listVaultAccountAddresses"],
  listVaultAccountAddresses: ["listAssetAddresses"],
  getTransactionRequest: ["getTransactionRequestV2"],
  getTransactionRequestV2: ["getTransactionRequest"],
  createUtxoTransactionRequest: ["createMultipleTransfer"],
  createMultipleTransfer: ["createUtxoTransactionRequest"],
  createUtxoTransfer: ["createUtxoTransactionRequest"],
  validateUtxoTransfer: ["createUtxoTransactionRequest"],
  createCoinTransactionRequest: ["createSingleTransferRequest"],
  createTokenTransactionRequest: ["createVaultTokenTransactionRequest", "createSingleTransferRequest"],
  createVaultTokenTransactionRequest: ["createTokenTransactionRequest", "createSingleTransferRequest"],
  createFeelessTransactionRequest: ["createSingleTransferRequest"],
  createFeelessTokenTransactionRequest: ["createSingleTransferRequest"],
}

const versionsOf = (op: VersionedOperation): ReadonlyArray<ApiVersion> => op.versions ?? API_VERSIONS

const shown = (op: VersionedOperation) => `${op.method} ${op.path.replace(/:(\w+)/g, "{$1}")}`

/** Where an operation exists: "at 2024-05-09 only", "at 2024-05-09 and 2025-09-23 only", "from 2025-09-23 on". */
const whereText = (versions: ReadonlyArray<ApiVersion>): string => {
  const first = API_VERSIONS.indexOf(versions[0]!)
  if (versions.length > 1 && first + versions.length === API_VERSIONS.length) return `from ${versions[0]} on`
  return versions.length === 1
    ? `at ${versions[0]} only`
    : `at ${versions.slice(0, -1).join(", ")} and ${versions[versions.length - 1]} only`
}

/** The versions column of the endpoint table: "all", or the versions that have it. */
export const versionsCell = (op: VersionedOperation): string => {
  const versions = versionsOf(op)
  return versions.length === API_VERSIONS.length ? "all" : versions.join(", ")
}

/**
 * 400 `uri_not_found`, as the service answers a path its version has not, with a message naming the versions that
 * have it and what to call instead at the request's version (or the header that reaches it).
 */
export const absentAt = (op: VersionedOperation, version: ApiVersion, operations: ReadonlyArray<VersionedOperation>): ApiError => {
  const versions = versionsOf(op)
  const instead = (counterparts[op.id] ?? [])
    .map((id) => operations.find((o) => o.id === id))
    .find((o) => o !== undefined && versionsOf(o).includes(version))
  const hint =
    instead !== undefined
      ? `at ${version} use ${shown(instead)}`
      : `this request is at ${version}: send x-api-version: ${versions[versions.length - 1]} to call it`
  return errors.uriNotFoundAt(`${shown(op)} exists ${whereText(versions)}; ${hint}.`, [
    { attribute: "x-api-version", message: `${shown(op)} exists at ${versions.join(", ")}` },
  ])
}
