// The spec's Vault object, per version.
import { Schema } from "effect"
import type { vaultJson } from "../presenters/vaults.js"
import { NetworkType } from "./common.js"
import { byVersion, named, struct } from "./shape.js"

/** The spec's Vault object (list items of #1 and #2). */
const VaultFields = struct({
  id: Schema.String,
  name: Schema.String,
  type: NetworkType,
  color: Schema.String,
  backuped: Schema.Boolean,
  changeAddressesCount: Schema.Int,
  depositAddressesCount: Schema.Int,
  createdTimestamp: Schema.Int,
})

type VaultValue = ReturnType<typeof vaultJson>

/**
 * The value carries the stored flag (false for a vault created without saying, as 2024-05-09 answers) and
 * `backupStated` when its creator said; from 2025-09-23 on a vault whose creator did not say is backed up.
 */
export const Vault = named(
  "Vault",
  byVersion(
    { "2024-05-09": VaultFields },
    {
      "2024-05-09": ({ backupStated: _, ...v }: VaultValue) => v,
      "2025-09-23": ({ backupStated, ...v }: VaultValue) => ({ ...v, backuped: backupStated === true ? v.backuped : true }),
    },
  ),
)
