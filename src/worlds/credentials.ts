// A world's credentials: fresh ones where its fixture names none, so that worlds from one fixture or one seed
// (same ids, same addresses) never share a key or an admin token. What a fixture names is kept, and refused
// (409 world_credentials_taken) when another world holds it.
import { randomBytes } from "node:crypto"
import type { CreateApiKeyInput } from "../commands/workspace.js"
import type { Fixture } from "../workspace/bootstrap.js"

/** Random bytes taken `n` at a time from one draw: a call into the system's generator costs more than its bytes. */
type Draw = (n: number) => Buffer

const drawn = (bytes: number): Draw => {
  const pool = randomBytes(bytes)
  let at = 0
  return (n) => pool.subarray(at, (at += n))
}

/** What one key's credentials take (below): 20 bytes of key, 32 of secret, 12 of passphrase. */
const KEY_BYTES = 20 + 32 + 12
const TOKEN_BYTES = 18

/** The key's generated parts drawn here: the same shapes as the seed's (commands/workspace.ts), at random. */
export const freshKey = (k: CreateApiKeyInput, draw: Draw = drawn(KEY_BYTES)): CreateApiKeyInput => ({
  ...k,
  key: k.key ?? draw(20).toString("hex"),
  secret: k.secret ?? draw(32).toString("base64"),
  passphrase: k.passphrase ?? draw(12).toString("hex"),
})

export const freshAdminToken = (draw: Draw = drawn(TOKEN_BYTES)): string => draw(TOKEN_BYTES).toString("base64url")

/** The fixture as a world creates it: every credential it leaves out drawn afresh (in one draw). */
export const withFreshCredentials = (fixture: Fixture): Fixture & { readonly adminToken: string } => {
  const keys = fixture.apiKeys ?? []
  const draw = drawn(TOKEN_BYTES + KEY_BYTES * keys.length)
  return { ...fixture, adminToken: fixture.adminToken ?? freshAdminToken(draw), apiKeys: keys.map((k) => freshKey(k, draw)) }
}

/** The server's own fixture without its credentials (a world from it gets fresh ones), with the server's seed. */
export const withoutCredentials = (fixture: Fixture, seed: string): Fixture => {
  const { adminToken: _token, ...rest } = fixture
  return {
    ...rest,
    seed: fixture.seed ?? seed,
    apiKeys: (fixture.apiKeys ?? []).map(({ key: _k, secret: _s, passphrase: _p, ...grant }) => grant),
  }
}
