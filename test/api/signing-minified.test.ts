// Signing as the documentation's pre-request script signs, over a real socket: the body is sent as typed (pretty-
// printed) and signed minified (JSON's whitespace outside strings removed, nothing else changed), at every version.
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { computeSignature, signRequest, type Credentials } from "../../src/client/index.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { isApiErrorShape } from "../support/strict-http.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness()
  server = await listen(h.app)
})
afterAll(async () => {
  await server.close()
  await h.close()
})

const VERSIONS = ["2024-05-09", "2025-09-23", "2026-03-20"] as const

/** What the documented script signs: the typed body with the whitespace between its tokens removed. */
const pretty = (name: string) =>
  `{\r\n  "data": {\n\t"item" : {\n    "name": "${name}",\n    "color": "#FF0000",\n    "isHiddenInDashboard": false\n  }\n }\n}\n`
const minified = (name: string) => `{"data":{"item":{"name":"${name}","color":"#FF0000","isHiddenInDashboard":false}}}`

/** The account's name as its version writes it (2026-03-20: `vaultAccountName`). */
const nameOf = (item: any): unknown => item?.name ?? item?.vaultAccountName

const post = async (creds: Credentials, path: string, sent: string | Buffer, signedOver: string) => {
  const headers = signRequest(creds, { method: "POST", url: path, body: signedOver })
  // signRequest signs as the server does; the script's own message is built here, over exactly `signedOver`.
  const message = `${headers["x-api-timestamp"]}POST${path}${signedOver}{}`
  headers["x-api-sign"] = computeSignature(creds.secret, message)
  const res = await request(server.url + path, { method: "POST", headers, body: sent })
  const text = await res.body.text()
  return { status: res.statusCode, body: JSON.parse(text) as any }
}

describe("a pretty-printed body signed over its minified form", () => {
  for (const version of VERSIONS) {
    it(`is accepted at ${version}, and the spaces inside its strings are kept`, async () => {
      const creds = await createKey(h, { apiVersion: version })
      const path = `/vaults/${h.testVaultId}/vault-account`
      const name = `two  spaces, one tab\\t and a quote \\" {x} : y`
      const r = await post(creds, path, pretty(name), minified(name))
      expect(r.status).toBe(201)
      expect(r.body.apiVersion).toBe(version)
      expect(nameOf(r.body.data.item)).toBe('two  spaces, one tab\t and a quote " {x} : y')
    })
  }

  it("a minified body is signed as it is sent, as before", async () => {
    const creds = await createKey(h, { apiVersion: "2024-05-09" })
    const path = `/vaults/${h.testVaultId}/vault-account`
    expect((await post(creds, path, minified("m"), minified("m"))).status).toBe(201)
  })

  for (const version of VERSIONS) {
    it(`is refused at ${version} when one byte differs from what was signed, inside a string or outside`, async () => {
      const creds = await createKey(h, { apiVersion: version })
      const path = `/vaults/${h.testVaultId}/vault-account`
      const cases: ReadonlyArray<readonly [string, string]> = [
        // a letter of a value changed
        [pretty("alicf"), minified("alice")],
        // a space inside a string added: the signature covers the spaces inside strings as sent
        [pretty("ali ce"), minified("alice")],
        // a space inside a string removed
        [pretty("alice"), minified("ali ce")],
        // the value's text changed without changing its meaning: escapes are signed as sent
        [pretty("\\u0061lice"), minified("alice")],
        // the pretty form signed: the server signs the minified one
        [pretty("alice"), pretty("alice")],
      ]
      const before = (await h.admin("GET", "/_sim/health")).body.position as number
      for (const [sent, signed] of cases) {
        const r = await post(creds, path, sent, signed)
        expect([r.status, r.body.error?.code]).toEqual([401, "invalid_api_sign"])
        expect(isApiErrorShape(r.body)).toBe(true)
      }
      expect((await h.admin("GET", "/_sim/health")).body.position).toBe(before)
    })
  }

  it("a body that is not JSON is signed over the same form, then refused by the body check", async () => {
    const creds = await createKey(h, { apiVersion: "2026-03-20" })
    const path = `/vaults/${h.testVaultId}/vault-account`
    const r = await post(creds, path, 'not json "at all" ', 'notjson"at all"')
    expect([r.status, r.body.error?.code]).toEqual([400, "invalid_request_body_structure"])
    expect(isApiErrorShape(r.body)).toBe(true)
  })

  it("a body of only whitespace is signed as no body", async () => {
    const creds = await createKey(h, { apiVersion: "2024-05-09" })
    const headers = signRequest(creds, { method: "GET", url: "/vaults" })
    headers["x-api-sign"] = computeSignature(creds.secret, `${headers["x-api-timestamp"]}GET/vaults{}{}`)
    const res = await request(`${server.url}/vaults`, { method: "GET", headers: { ...headers, "content-length": "3" }, body: " \n " })
    expect(res.statusCode).toBe(200)
    await res.body.text()
  })
})

describe("a body beginning with a UTF-8 byte order mark", () => {
  const BOM = Buffer.from([0xef, 0xbb, 0xbf])
  it("is accepted when the JSON text after the mark was signed, at every version", async () => {
    for (const version of VERSIONS) {
      const creds = await createKey(h, { apiVersion: version })
      const path = `/vaults/${h.testVaultId}/vault-account`
      const r = await post(creds, path, Buffer.concat([BOM, Buffer.from(pretty("bom"))]), minified("bom"))
      expect([r.status, nameOf(r.body.data?.item)]).toEqual([201, "bom"])
    }
  })

  it("is refused with invalid_api_sign naming the mark when the mark was signed too, and changes nothing", async () => {
    const creds = await createKey(h, { apiVersion: "2026-03-20" })
    const path = `/vaults/${h.testVaultId}/vault-account`
    const before = (await h.admin("GET", "/_sim/health")).body
    const r = await post(creds, path, Buffer.concat([BOM, Buffer.from(minified("bom2"))]), `\uFEFF${minified("bom2")}`)
    expect(r.status).toBe(401)
    expect(isApiErrorShape(r.body)).toBe(true)
    expect(r.body.error).toEqual({ code: "invalid_api_sign", message: expect.stringContaining("byte order mark"), details: [] })
    expect((await h.admin("GET", "/_sim/health")).body.position).toBe(before.position)
  })
})
