// Chains: every network with its height, mining mode and confirmations; one chain's controls and mempool.
import { useState } from "preact/hooks"
import { send } from "../api.js"
import { ErrorLine, Head, Pager, Section, short, Table, usePager, type Page } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"
import type { Catalogue } from "./vault.js"

interface ChainDetail {
  blockchain: string
  network: string
  networkType: string
  height: number
  mode: string
  intervalSeconds: number
  confirmationsRequired: number
  mempool: Page<{ transactionId: string; kind: string; from: string; to: string; amount: string; submittedAt: number }>
}

const Controls = ({ c }: { c: ChainDetail }) => {
  const { act, asOf } = useShared()
  const path = `/_sim/chains/${c.blockchain}/${c.network}`
  const [blocks, setBlocks] = useState("1")
  const [mode, setMode] = useState(c.mode)
  const [confirmations, setConfirmations] = useState(String(c.confirmationsRequired))
  const [fault, setFault] = useState("broadcast-failure")
  const live = asOf === null
  return (
    <div class="controls">
      <form
        class="inline"
        onSubmit={(e) => (e.preventDefault(), void act("mine", () => send("POST", `${path}/mine`, { blocks: Number(blocks) })))}
      >
        <label>
          blocks <input name="blocks" size={4} value={blocks} onInput={(e) => setBlocks((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={!live}>
          mine
        </button>
      </form>
      <form
        class="inline"
        onSubmit={(e) => (
          e.preventDefault(),
          void act("set the mining mode", () => send("PUT", `${path}/mining`, { mode, confirmations: Number(confirmations) }))
        )}
      >
        <label>
          mode{" "}
          <select name="mode" value={mode} onChange={(e) => setMode((e.target as HTMLSelectElement).value)}>
            <option value="interval">interval</option>
            <option value="auto">auto</option>
            <option value="manual">manual</option>
          </select>
        </label>
        <label>
          confirmations{" "}
          <input
            name="confirmations"
            size={4}
            value={confirmations}
            onInput={(e) => setConfirmations((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={!live}>
          set mining
        </button>
      </form>
      <form
        class="inline"
        onSubmit={(e) => (e.preventDefault(), void act("arm a fault", () => send("POST", `${path}/faults`, { kind: fault, count: 1 })))}
      >
        <label>
          fault{" "}
          <select name="fault" value={fault} onChange={(e) => setFault((e.target as HTMLSelectElement).value)}>
            <option value="broadcast-failure">broadcast failure</option>
            <option value="execution-failure">execution failure</option>
          </select>
        </label>
        <button type="submit" disabled={!live}>
          arm fault
        </button>
      </form>
    </div>
  )
}

export const ChainView = ({ blockchain, network }: { blockchain: string; network: string }) => {
  const pager = usePager(20)
  const { data, error } = useData<ChainDetail>(`/_sim/chains/${blockchain}/${network}?${pager.query}`)
  return (
    <Section title={`${blockchain}/${network}`}>
      <ErrorLine error={error} onReset={pager.reset} />
      {data !== undefined ? (
        <>
          <p>
            height <strong data-testid="chain-height">{data.height}</strong> · mining {data.mode}
            {data.mode === "interval" ? ` every ${data.intervalSeconds} s` : ""} · {data.confirmationsRequired} confirmation
            {data.confirmationsRequired === 1 ? "" : "s"} · {data.networkType}net
          </p>
          <p data-testid="chain-views">
            through chain clients (docs/chain-views.md): EVM JSON-RPC{" "}
            <code>
              POST /_chain/{blockchain}/{network}
            </code>{" "}
            on EVM networks, Esplora{" "}
            <a href={`/_chain/${blockchain}/${network}/esplora/blocks/tip/height`}>
              <code>
                /_chain/{blockchain}/{network}/esplora
              </code>
            </a>{" "}
            on UTXO networks
          </p>
          <Controls key={`${data.mode}/${data.confirmationsRequired}`} c={data} />
          <h3>Mempool</h3>
          {data.mempool.items.length === 0 ? <p>Empty.</p> : null}
          <Table label="mempool" empty={data.mempool.items.length === 0}>
            <Head columns={["submitted", "transaction", "kind", "to", "#amount (base units)"]} />
            <tbody>
              {data.mempool.items.map((t) => (
                <tr key={t.transactionId}>
                  <td>{formatTime(t.submittedAt)}</td>
                  <td>
                    <code>{short(t.transactionId, 12)}</code>
                  </td>
                  <td>{t.kind}</td>
                  <td>
                    <code>{short(t.to, 12)}</code>
                  </td>
                  <td class="n">{t.amount}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager pager={pager} page={data.mempool} idOf={(t: { transactionId: string }) => t.transactionId} />
        </>
      ) : null}
    </Section>
  )
}

export const ChainsView = () => {
  const { data } = useData<Catalogue>("/_sim/assets", { asOf: false })
  const [filter, setFilter] = useState("test")
  return (
    <Section
      title="Chains"
      actions={
        <label>
          networks{" "}
          <select name="network-type" value={filter} onChange={(e) => setFilter((e.target as HTMLSelectElement).value)}>
            <option value="test">test</option>
            <option value="main">main</option>
          </select>
        </label>
      }
    >
      <ul class="chips">
        {(data?.networks ?? [])
          .filter((n) => n.networkType === filter)
          .map((n) => (
            <li key={`${n.blockchain}/${n.network}`}>
              <a class="chip" href={`#/chain/${n.blockchain}/${n.network}`}>
                {n.blockchain}/{n.network}
              </a>
            </li>
          ))}
      </ul>
    </Section>
  )
}
