// Property: changing any byte of the method, path, query, body, timestamp or signature never yields a 2xx.
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signRequest } from "../../src/client/index.js"
import { BASE, startHarness, type Harness } from "../support/harness.js"

let h: Harness
beforeAll(async () => {
  h = await startHarness({ app: { log: { error: () => {}, info: () => {} } } })
})
afterAll(async () => h.close())

const flip = (s: string, index: number, to: string) => {
  const i = index % s.length
  const c = s[i] === to ? String.fromCharCode(((to.charCodeAt(0) + 1) % 94) + 33) : to
  return s.slice(0, i) + c + s.slice(i + 1)
}

describe("signature integrity", () => {
  it("a request signed for one (method, path, query, body, timestamp) is refused when any part changes", async () => {
    const url = `/vaults/${h.testVaultId}/vault-account?context=abc`
    const body = JSON.stringify({ data: { item: { name: "n", color: "#000000", isHiddenInDashboard: false } } })
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = signRequest(h.creds, { method: "POST", url, body, timestamp })
    const part = fc.constantFrom("method", "path", "query", "body", "timestamp", "signature")
    const printable = fc.string({
      minLength: 1,
      maxLength: 1,
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789{}":,._-'.split("")),
    })
    await fc.assert(
      fc.asyncProperty(part, fc.nat(), printable, async (which, at, ch) => {
        let method = "POST"
        let target = url
        let sentBody = body
        const sent = { ...headers }
        if (which === "method") method = "PUT"
        if (which === "path") target = "/" + flip(url.slice(1, url.indexOf("?")), at, ch === "/" ? "x" : ch) + url.slice(url.indexOf("?"))
        if (which === "query") target = url.slice(0, url.indexOf("?") + 1) + flip(url.slice(url.indexOf("?") + 1), at, ch)
        if (which === "body") sentBody = flip(body, at, ch)
        if (which === "timestamp") sent["x-api-timestamp"] = String(timestamp - 1 - (at % 5))
        if (which === "signature") sent["x-api-sign"] = flip(headers["x-api-sign"]!, at, ch === "=" ? "A" : ch)
        const res = await h.app.request(BASE + target, { method, headers: sent, body: sentBody })
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
      }),
      { numRuns: 200 },
    )
  })
})
