// The contract check itself (test/support/contract.ts, which every test file runs after its tests): a real answer
// passes; the same answer with a field its document lacks, without a field it requires, with a success status the
// document does not give, an error outside the error envelope, or with a status or code its operation does not
// declare, is reported.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultOperations } from "../../src/api/app.js"
import type { ObservedAnswer } from "../../src/api/operation.js"
import { contractViolations } from "../support/contract.js"
import { type Harness, startHarness } from "../support/harness.js"

let h: Harness
let listed: ObservedAnswer
const listVaults = defaultOperations.find((o) => o.id === "listVaults")!

beforeAll(async () => {
  h = await startHarness({ apiVersion: "2026-03-20" })
  const res = await h.raw({ method: "GET", url: "/vaults" })
  expect(res.status).toBe(200)
  listed = { operation: listVaults, status: 200, body: JSON.stringify(res.body) }
})
afterAll(() => h.close())

const reshaped = (edit: (body: any) => void): ObservedAnswer => {
  const body = JSON.parse(listed.body)
  edit(body)
  return { ...listed, body: JSON.stringify(body) }
}

describe("the contract check", () => {
  it("passes a real answer of listVaults at 2026-03-20", async () => {
    expect(JSON.parse(listed.body).data.items.length).toBeGreaterThan(0)
    expect(await contractViolations([listed])).toEqual([])
  })

  it("reports a field the document lacks, a required field missing, and a success status it does not give", async () => {
    const extra = reshaped((b) => {
      b.data.items[0].colour = "blue"
    })
    const missing = reshaped((b) => {
      delete b.data.items[0].id
    })
    const created = { ...listed, status: 201 }
    const found = await contractViolations([extra, missing, created])
    expect(found.map((v) => [v.operation, v.status])).toEqual([
      ["listVaults", 200],
      ["listVaults", 200],
      ["listVaults", 201],
    ])
    expect(JSON.stringify(found[0]!.problem)).toContain("colour")
    expect(JSON.stringify(found[1]!.problem)).toContain("id")
    expect(found[2]!.problem).toBe("success status 201, the document says 200")
  })

  it("reports an error answer outside the error envelope, and a body that is not JSON", async () => {
    const notEnvelope = { ...listed, status: 404, body: JSON.stringify({ apiVersion: "2026-03-20", message: "no" }) }
    const notJson = { ...listed, status: 200, body: "<html>" }
    const found = await contractViolations([notEnvelope, notJson])
    expect(found.map((v) => v.status)).toEqual([404, 200])
    expect(found[1]!.problem).toBe("not JSON")
  })

  it("passes a real error answer, and reports a status or a code the operation's document does not declare", async () => {
    const res = await h.raw({ method: "GET", url: "/vaults", override: { "x-api-key": null } })
    expect(res.status).toBe(401)
    const unsigned = { ...listed, status: 401, body: JSON.stringify(res.body) }
    expect(await contractViolations([unsigned])).toEqual([])
    const error = (status: number, code: string) => ({
      ...listed,
      status,
      body: JSON.stringify({ apiVersion: "2026-03-20", requestId: "r", error: { code, message: "m", details: [] } }),
    })
    // A read takes no body (no 413), and runs no command (no utxo_reserved).
    const found = await contractViolations([error(413, "request_body_too_large"), error(409, "utxo_reserved")])
    expect(found.map((v) => [v.operation, v.status])).toEqual([
      ["listVaults", 413],
      ["listVaults", 409],
    ])
    expect(found[0]!.problem).toBe("no version's document declares a 413 answer for listVaults")
    expect(JSON.stringify(found[1]!.problem)).toContain("enum")
  })
})
