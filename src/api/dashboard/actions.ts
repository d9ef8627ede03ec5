// Control-plane writes the REST surface has only behind an API key's signature: create a vault account, add an
// asset, derive an address of the vault's own (its default account's, which add-asset does not take). Plain JSON in and out; the body goes through the operation's own checks and handler.
import { defaultOperations } from "../operations.js"
import { type SimRoute, simRoute } from "../sim/common.js"
import { runOperation } from "./operations.js"

export const dashboardActions: ReadonlyArray<SimRoute> = [
  simRoute({
    method: "POST",
    path: "/_sim/vaults/:vaultId/vault-accounts",
    handle: ({ params, body }, deps) =>
      runOperation(defaultOperations, "createVaultAccount", deps, { params: { vaultId: params.vaultId }, item: body }),
  }),
  simRoute({
    method: "PUT",
    path: "/_sim/vaults/:vaultId/vault-accounts/:vaultAccountId/add-asset",
    handle: ({ params, body }, deps) =>
      runOperation(defaultOperations, "addAssetToVaultAccount", deps, {
        params: { vaultId: params.vaultId, vaultAccountId: params.vaultAccountId },
        item: body,
      }),
  }),
  simRoute({
    method: "POST",
    path: "/_sim/vaults/:vaultId/:blockchain/:network/addresses",
    handle: ({ params, body }, deps) =>
      runOperation(defaultOperations, "generateDepositAddress", deps, {
        params: { vaultId: params.vaultId, blockchain: params.blockchain, network: params.network },
        item: body,
      }),
  }),
]
