// Overview: the clock (advance, freeze), vaults with their counts, chains in use, requests awaiting approval.
import { useState } from "preact/hooks"
import { send } from "../api.js"
import { ErrorLine, Head, Section, Table } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"

export interface Overview {
  readonly position: number
  readonly head: number
  readonly time: number
  readonly clock: { nowMs: number; frozen: boolean }
  readonly vaults: ReadonlyArray<{
    id: string
    name: string
    type: string
    color: string
    accounts: number
    depositAddressesCount: number
    changeAddressesCount: number
    approvalPolicy: { mode: string; levels: number }
  }>
  readonly chains: ReadonlyArray<{ blockchain: string; network: string; height: number; mode: string; confirmationsRequired: number }>
  readonly awaitingApproval: number
  readonly webhooks: number
}

export const Clock = ({ overview }: { overview: Overview | undefined }) => {
  const { act, asOf } = useShared()
  const [seconds, setSeconds] = useState("60")
  const frozen = overview?.clock.frozen ?? false
  return (
    <Section title="Clock">
      <p>
        Simulated time {asOf === null ? "now" : "at this position"}: <strong data-testid="clock-time">{formatTime(overview?.time)}</strong>{" "}
        · clock {frozen ? "frozen" : "follows the wall clock"}
      </p>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault()
          void act("advance the clock", () => send("POST", "/_sim/clock/advance", { seconds: Number(seconds) }))
        }}
      >
        <label>
          seconds{" "}
          <input
            name="seconds"
            inputMode="decimal"
            size={6}
            value={seconds}
            onInput={(e) => setSeconds((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">advance</button>
        <button
          type="button"
          onClick={() =>
            void act(frozen ? "follow the wall clock" : "freeze the clock", () =>
              send("PUT", "/_sim/clock", { mode: frozen ? "wall" : "frozen" }),
            )
          }
        >
          {frozen ? "follow wall clock" : "freeze"}
        </button>
      </form>
    </Section>
  )
}

export const OverviewView = () => {
  const { data, error } = useData<Overview>("/_sim/overview")
  const { navigate } = useShared()
  return (
    <>
      <ErrorLine error={error} />
      <div class="grid">
        <Clock overview={data} />
        <Section title="At a glance">
          <p>
            <a href="#/requests">{data?.awaitingApproval ?? 0} requests awaiting approval</a> ·{" "}
            <a href="#/webhooks">{data?.webhooks ?? 0} webhook subscriptions</a> · log position {data?.position ?? "—"}
          </p>
        </Section>
      </div>
      <Section title="Vaults">
        <Table label="vaults" stack>
          <Head columns={["name", "type", "#accounts", "#deposit addresses", "#change addresses", "approval"]} />
          <tbody>
            {(data?.vaults ?? []).map((v) => (
              <tr key={v.id}>
                <td class="wide" data-label="name">
                  <span class="swatch" style={{ background: v.color }} />
                  <a href={`#/vault/${v.id}`} onClick={(e) => (e.preventDefault(), navigate(`#/vault/${v.id}`))}>
                    {v.name}
                  </a>
                </td>
                <td data-label="type">{v.type}</td>
                <td class="n" data-label="accounts">
                  {v.accounts}
                </td>
                <td class="n" data-label="deposit addresses">
                  {v.depositAddressesCount}
                </td>
                <td class="n" data-label="change addresses">
                  {v.changeAddressesCount}
                </td>
                <td data-label="approval">
                  {v.approvalPolicy.mode}
                  {v.approvalPolicy.mode === "manual" ? `, ${v.approvalPolicy.levels} level${v.approvalPolicy.levels > 1 ? "s" : ""}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Section>
      <Section title="Chains in use">
        {data !== undefined && data.chains.length === 0 ? <p>No chain has recorded anything yet.</p> : null}
        <Table label="chains in use" empty={data !== undefined && data.chains.length === 0}>
          <Head columns={["chain", "#height", "mining", "#confirmations"]} />
          <tbody>
            {(data?.chains ?? []).map((c) => (
              <tr key={`${c.blockchain}/${c.network}`}>
                <td>
                  <a href={`#/chain/${c.blockchain}/${c.network}`}>
                    {c.blockchain}/{c.network}
                  </a>
                </td>
                <td class="n">{c.height}</td>
                <td>{c.mode}</td>
                <td class="n">{c.confirmationsRequired}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Section>
    </>
  )
}
