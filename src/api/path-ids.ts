// Ids in paths, checked for their form before anything is looked up: the 2026 contract answers a malformed
// vaultAccountId (its example: `invalid-id-format`) with 409 where an unknown one is 404 (custody-api-2026.md
// §2.5, §3.2.3). The rule holds for every path parameter naming an id the service issues in one form, in the
// versions whose contract states it; a malformed vaultId stays 403, as that contract has it (authorize.ts).
import { since, type ApiVersion } from "../domain/api-key/index.js"
import { errors, type ApiError } from "./errors.js"

/** Every id the simulator issues (vault accounts, transaction requests) is 24 lowercase hex characters. */
const ISSUED_ID = /^[0-9a-f]{24}$/

/** The path parameters holding such ids. */
const ID_PARAMS: ReadonlyArray<string> = ["vaultAccountId", "transactionRequestId"]

const STATED_IN: ReadonlySet<ApiVersion> = new Set(since("2026-03-20"))

/** The check of an operation's path, or undefined when its path holds no such id. */
export const malformedIdCheck = (
  path: string,
): ((params: Readonly<Record<string, string>>, version: ApiVersion) => ApiError | undefined) | undefined => {
  const names = path
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1))
    .filter((name) => ID_PARAMS.includes(name))
  if (names.length === 0) return undefined
  return (params, version) => {
    if (!STATED_IN.has(version)) return undefined
    for (const name of names) {
      const value = params[name]
      if (value !== undefined && !ISSUED_ID.test(value)) return errors.malformedId(name)
    }
    return undefined
  }
}
