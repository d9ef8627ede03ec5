// Signed reads of #8 (assets of an address) and #11 (assets of a vault) vs a bare Hono route with the same bytes.
import { startFundedBench } from "./lib/funded.js"
import { httpVsBareHono } from "./lib/http.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

const read = (name: string, description: string, url: (b: { vaultId: string; address: string }) => string, routePattern: string): Benchmark => ({
  name,
  description,
  budget: ratioAtLeast(0.5),
  run: async (options) => {
    const bench = await startFundedBench()
    try {
      return await httpVsBareHono({ ...options, subject: bench.app.fetch, request: { method: "GET", url: url(bench) }, sign: bench.creds, routePattern })
    } finally {
      await bench.close()
    }
  },
})

export const httpGetAddressAssets = read(
  "http-get-address-assets",
  "signed GET #8 /vaults/{id}/ethereum/addresses/{address}/assets (two funded assets) vs a bare Hono route, same bytes",
  (b) => `/vaults/${b.vaultId}/ethereum/addresses/${b.address}/assets`,
  "/vaults/:vaultId/:blockchain/addresses/:address/assets",
)

export const httpGetVaultAssets = read(
  "http-get-vault-assets",
  "signed GET #11 /vaults/{id}/assets (two funded assets) vs a bare Hono route, same bytes",
  (b) => `/vaults/${b.vaultId}/assets`,
  "/vaults/:vaultId/assets",
)
