// Signed reads of #8 (assets of an address) and #11 (assets of a vault) vs a bare Hono route with the same bytes.
import { startFundedBench } from "./lib/funded.js"
import { httpVsBareHono } from "./lib/http.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

const read = (
  name: string,
  description: string,
  url: (b: { vaultId: string; address: string }) => string,
  routePattern: string,
  at2026 = false,
): Benchmark => ({
  name,
  description,
  budget: ratioAtLeast(at2026 ? 0.7 : 0.5),
  run: async (options) => {
    const bench = await startFundedBench()
    try {
      return await httpVsBareHono({
        ...options,
        subject: bench.app.fetch,
        request: { method: "GET", url: url(bench) },
        sign: at2026 ? bench.creds2026 : bench.creds,
        routePattern,
      })
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

export const httpGetAddressBalance2026 = read(
  "http-get-address-balance-2026",
  "signed GET /vaults/{id}/addresses/{address}/balance at 2026-03-20 (#8's successor; two funded assets) vs a bare Hono route, same bytes",
  (b) => `/vaults/${b.vaultId}/addresses/${b.address}/balance`,
  "/vaults/:vaultId/addresses/:address/balance",
  true,
)

export const httpGetVaultAssets2026 = read(
  "http-get-vault-assets-2026",
  "signed GET #11 /vaults/{id}/assets at 2026-03-20 (two funded assets) vs a bare Hono route, same bytes",
  (b) => `/vaults/${b.vaultId}/assets`,
  "/vaults/:vaultId/assets",
  true,
)
