// A world's credentials: fresh ones where its fixture names none, so that worlds from one fixture or one seed
// (same ids, same addresses) never share a key or an admin token. What a fixture names is kept, and refused
// (409 world_credentials_taken) when another world holds it.
import { randomBytes } from "node:crypto"
import type { CreateApiKeyInput } from "../commands/workspace.js"
import type { Fixture } from "../workspace/bootstrap.js"

const hex = (n: number) => randomBytes(n).toString("hex")

/** The key's generated parts drawn here: the same shapes as the seed's (commands/workspace.ts), at random. */
export const freshKey = (k: CreateApiKeyInput): CreateApiKeyInput => ({
  ...k,
  key: k.key ?? hex(20),
  secret: k.secret ?? randomBytes(32).toString("base64"),
  passphrase: k.passphrase ?? hex(12),
})

export const freshAdminToken = (): string => randomBytes(18).toString("base64url")

/** The fixture as a world creates it: every credential it leaves out drawn afresh. */
export const withFreshCredentials = (fixture: Fixture): Fixture & { readonly adminToken: string } => ({
  ...fixture,
  adminToken: fixture.adminToken ?? freshAdminToken(),
  apiKeys: (fixture.apiKeys ?? []).map(freshKey),
})

/** The server's own fixture without its credentials (a world from it gets fresh ones), with the server's seed. */
export const withoutCredentials = (fixture: Fixture, seed: string): Fixture => {
  const { adminToken: _token, ...rest } = fixture
  return {
    ...rest,
    seed: fixture.seed ?? seed,
    apiKeys: (fixture.apiKeys ?? []).map(({ key: _k, secret: _s, passphrase: _p, ...grant }) => grant),
  }
}
