// The spec's suggested first-use sequence, end to end through signed HTTP requests.
import { afterEach, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"

let h: Harness
afterEach(async () => h?.close())

describe("first-use sequence", () => {
  it("lists vaults, creates an account, finds the asset, adds it with a label, and the address validates", async () => {
    h = await startHarness()
    const vaults = await h.client.call<{ items: Array<{ id: string; type: string }> }>("GET", "/vaults/test")
    expect(vaults.status).toBe(200)
    const vaultId = vaults.body.data.items[0]!.id
    expect(vaults.body.data.items[0]!.type).toBe("test")

    const account = await h.client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${vaultId}/vault-account`, {
      item: { name: "alice", color: "#FF0000", isHiddenInDashboard: false },
    })
    expect(account.status).toBe(201)
    const vaultAccountId = account.body.data.item.vaultAccountId
    expect(vaultAccountId).toMatch(/^[0-9a-f]{24}$/)

    const assets = await h.client.call<{ items: Array<{ id: string; blockchain: string; network: string }> }>("GET", "/supported-assets", {
      query: { assetUnit: "ETH", blockchain: "ethereum", networkType: "test" },
    })
    expect(assets.status).toBe(200)
    const eth = assets.body.data.items.find((a) => a.network === "sepolia")!
    expect(eth.id).toMatch(/^[0-9a-f]{24}$/)

    const added = await h.client.call<{ item: { address: string } }>(
      "PUT",
      `/vaults/${vaultId}/vault-accounts/${vaultAccountId}/add-asset`,
      {
        item: { assetId: eth.id, label: "alice deposit" },
      },
    )
    expect(added.status).toBe(200)
    const address = added.body.data.item.address
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

    const valid = await h.client.call<{ item: { address: string; isValid: boolean } }>(
      "POST",
      "/info/ethereum/sepolia/addresses/validate",
      {
        item: { address },
      },
    )
    expect(valid.status).toBe(200)
    expect(valid.body.data.item).toEqual({ address, isValid: true })

    const byVault = await h.client.call<{ item: { assets: Array<{ assetId: string; assetData: { totalAmount: string } }> } }>(
      "GET",
      `/vaults/${vaultId}/assets`,
    )
    expect(byVault.body.data.item.assets).toEqual([
      expect.objectContaining({
        assetId: eth.id,
        symbol: "ETH",
        type: "COIN",
        blockchain: "ethereum",
        network: "sepolia",
        exchangeRate: "3200",
      }),
    ])
    expect(byVault.body.data.item.assets[0]!.assetData).toEqual({
      totalAmount: "0",
      availableAmount: "0",
      blockedAmount: "0",
      allocatedAmount: "0",
    })
  })
})
