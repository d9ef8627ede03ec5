// The dashboard's session over a real socket: login sets an HttpOnly, SameSite=Strict cookie; the cookie opens the
// control plane; a change without the cookie, from another origin or site, or without the CSRF token changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request } from "undici"
import { startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { listen } from "../support/server.js"

let p: InProcess
let server: { url: string; close: () => Promise<void> }
const MINE = "/_sim/chains/ethereum/sepolia/mine"

beforeAll(async () => {
  p = await startInProcess({ seed: "dashboard-session", webhooks: false })
  server = await listen(p.app)
})
afterAll(async () => {
  await server.close()
  await p.close()
})

const call = async (method: "GET" | "POST" | "PUT" | "DELETE", path: string, headers: Record<string, string> = {}, body?: unknown) => {
  const r = await request(server.url + path, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await r.body.text()
  return { status: r.statusCode, headers: r.headers, body: text.length > 0 && text.startsWith("{") ? JSON.parse(text) : text }
}

const login = async () => {
  const r = await call("POST", "/ui/session", { origin: server.url }, { token: p.sim.adminToken })
  expect(r.status).toBe(200)
  const cookie = String(r.headers["set-cookie"]).split(";")[0]!
  return { cookie, csrf: r.body.csrfToken as string, setCookie: String(r.headers["set-cookie"]) }
}

const height = async () => (await p.admin<{ height: number }>("GET", "/_sim/chains/ethereum/sepolia")).body.height

describe("dashboard login", () => {
  it("serves the page at /ui with a policy that forbids framing and foreign scripts", async () => {
    const r = await call("GET", "/ui")
    expect(r.status).toBe(200)
    expect(r.headers["content-type"]).toMatch(/^text\/html/)
    expect(r.body).toContain('<script type="module" src="/ui/assets/app.js">')
    expect(String(r.headers["content-security-policy"])).toContain("frame-ancestors 'none'")
    expect(String(r.headers["content-security-policy"])).toContain("default-src 'self'")
    const js = await call("GET", "/ui/assets/app.js")
    expect(js.status).toBe(200)
    expect(js.headers["content-type"]).toMatch(/^text\/javascript/)
    expect((await call("GET", "/ui/assets/..%2Fpackage.json")).status).toBe(404)
  })

  it("sets an HttpOnly, SameSite=Strict session cookie for the admin token, and refuses a wrong one", async () => {
    const { setCookie, csrf } = await login()
    expect(setCookie).toMatch(/^custody_sim_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/)
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const wrong = await call("POST", "/ui/session", {}, { token: "not-the-token" })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error.code).toBe("unauthorized")
    expect(wrong.headers["set-cookie"]).toBeUndefined()
  })

  it("refuses a login posted from another origin", async () => {
    const r = await call("POST", "/ui/session", { origin: "http://evil.example" }, { token: p.sim.adminToken })
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("cross_site_request")
    expect(r.headers["set-cookie"]).toBeUndefined()
  })

  it("is served by the in-process simulator of custody-sim/testing too", async () => {
    const page = await p.fetch("/ui")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("/ui/assets/app.js")
    const login = await p.fetch("/ui/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: p.sim.adminToken }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!
    expect((await p.fetch("/_sim/overview", { headers: { cookie } })).status).toBe(200)
  })

  it("opens the control plane's reads to the cookie", async () => {
    const { cookie } = await login()
    expect((await call("GET", "/_sim/overview")).status).toBe(401)
    const r = await call("GET", "/_sim/overview", { cookie })
    expect(r.status).toBe(200)
    expect(r.body.vaults.map((v: { name: string }) => v.name)).toEqual(["Test vault", "Main vault"])
    expect((await call("GET", "/ui/session", { cookie })).body).toEqual({ authenticated: true, csrfToken: expect.any(String) })
  })
})

describe("cross-site protection of changes", () => {
  it("a change with the cookie, same origin and the CSRF token is made", async () => {
    const { cookie, csrf } = await login()
    const before = await height()
    const r = await call("POST", MINE, { cookie, origin: server.url, "sec-fetch-site": "same-origin", "x-csrf-token": csrf }, { blocks: 1 })
    expect(r.status).toBe(200)
    expect(await height()).toBe(before + 1)
  })

  it("without the cookie, from another origin or site, or without the token, nothing changes", async () => {
    const { cookie, csrf } = await login()
    const head = p.sim.models.position
    const before = await height()
    const attempts: Array<[Record<string, string>, number, string]> = [
      [{ origin: server.url, "x-csrf-token": csrf }, 401, "unauthorized"],
      [{ cookie, origin: "http://evil.example", "x-csrf-token": csrf }, 403, "cross_site_request"],
      [{ cookie, "sec-fetch-site": "cross-site", "x-csrf-token": csrf }, 403, "cross_site_request"],
      [{ cookie, "sec-fetch-site": "same-site", "x-csrf-token": csrf }, 403, "cross_site_request"],
      [{ cookie, origin: server.url }, 403, "csrf_token_invalid"],
      [{ cookie, origin: server.url, "x-csrf-token": `${csrf.slice(0, -1)}A` }, 403, "csrf_token_invalid"],
      [{ cookie: "custody_sim_session=forged", origin: server.url, "x-csrf-token": csrf }, 401, "unauthorized"],
    ]
    for (const [headers, status, code] of attempts) {
      const r = await call("POST", MINE, headers, { blocks: 1 })
      expect([r.status, r.body.error?.code]).toEqual([status, code])
    }
    const deposit = await call("POST", "/_sim/deposits", { cookie, origin: "http://evil.example", "x-csrf-token": csrf }, {})
    expect(deposit.status).toBe(403)
    expect(await height()).toBe(before)
    expect(p.sim.models.position).toBe(head)
  })

  it("logout closes the session: the same cookie and token are refused afterwards", async () => {
    const { cookie, csrf } = await login()
    const headers = { cookie, origin: server.url, "x-csrf-token": csrf }
    expect((await call("DELETE", "/ui/session", { cookie, origin: "http://evil.example", "x-csrf-token": csrf })).status).toBe(403)
    const out = await call("DELETE", "/ui/session", headers)
    expect(out.status).toBe(200)
    expect(String(out.headers["set-cookie"])).toContain("Max-Age=0")
    const before = await height()
    const r = await call("POST", MINE, headers, { blocks: 1 })
    expect(r.status).toBe(401)
    expect(await height()).toBe(before)
    expect((await call("GET", "/ui/session", { cookie })).body).toEqual({ authenticated: false })
  })

  it("the Bearer token needs no cookie nor CSRF token (scripts keep working)", async () => {
    const before = await height()
    const r = await call("POST", MINE, { authorization: `Bearer ${p.sim.adminToken}`, origin: "http://elsewhere.example" }, { blocks: 1 })
    expect(r.status).toBe(200)
    expect(await height()).toBe(before + 1)
  })
})
