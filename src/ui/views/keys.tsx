// API keys as of the chosen position: scopes, vaults, network types, revoked or not; revoke.
import { send } from "../api.js"
import { ErrorLine, Head, Pager, Section, Table, usePager, type Page } from "../parts.js"
import { useData, useShared } from "../state.js"

interface Key {
  key: string
  name: string
  scopes: ReadonlyArray<string>
  vaultIds: ReadonlyArray<string> | null
  networkTypes: ReadonlyArray<string>
  apiVersion: string
  revoked: boolean
}

export const KeysView = () => {
  const { act, asOf } = useShared()
  const pager = usePager(25)
  const { data, error } = useData<Page<Key>>(`/_sim/api-keys?${pager.query}`)
  return (
    <Section title="API keys">
      <ErrorLine error={error} onReset={pager.reset} />
      <Table label="api keys">
        <Head columns={["key", "name", "scopes", "vaults", "networks", "state"]} />
        <tbody>
          {(data?.items ?? []).map((k) => (
            <tr key={k.key}>
              <td>
                <code>{k.key}</code>
              </td>
              <td>{k.name}</td>
              <td>{k.scopes.join(", ")}</td>
              <td>{k.vaultIds === null ? "all" : k.vaultIds.join(", ")}</td>
              <td>{k.networkTypes.join(", ")}</td>
              <td>
                {k.revoked ? (
                  "revoked"
                ) : (
                  <button
                    type="button"
                    disabled={asOf !== null}
                    onClick={() => confirm(`Revoke ${k.key}?`) && void act("revoke", () => send("DELETE", `/_sim/api-keys/${k.key}`))}
                  >
                    revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager pager={pager} page={data} idOf={(k: Key) => k.key} />
    </Section>
  )
}
