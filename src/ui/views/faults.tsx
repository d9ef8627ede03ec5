// Faults in force with their hits (`/_sim/faults`): add one from its JSON, remove one, clear all; and the requests
// and deliveries they hit (the log's FaultHit events), each marked with the fault's id.
import { useState } from "preact/hooks"
import { send } from "../api.js"
import { ErrorLine, Head, Section, short, Table } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"

interface Fault {
  id: string
  target: "api" | "webhook"
  match: Record<string, string>
  effect: { kind: string } & Record<string, unknown>
  times: number | null
  every: number | null
  probability: number | null
  seed: string | null
  hits: number
}

interface HitEvent {
  position: number
  data: { faultId: string; call: number; requestId: string | null; deliveryId: string | null; at: number }
}

const EXAMPLE = JSON.stringify({ match: { method: "GET", path: "/vaults" }, effect: { kind: "status", status: 503 }, times: 1 }, null, 2)

const describe = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(", ")

const schedule = (f: Fault) =>
  [
    f.times !== null ? `times ${f.times}` : null,
    f.every !== null ? `every ${f.every}` : null,
    f.probability !== null ? `probability ${f.probability}${f.seed !== null ? ` (seed ${f.seed})` : ""}` : null,
  ]
    .filter((s) => s !== null)
    .join(", ") || "every matching call"

/** The mark a faulted request or delivery carries. */
export const FaultBadge = ({ faultId }: { faultId: string }) => (
  <span class="badge fault" data-testid="fault-badge" title={`hit by fault ${faultId}`}>
    fault {faultId}
  </span>
)

/** The FaultHit events up to the shared position, oldest first (the first 500). */
export const useFaultHits = () =>
  useData<{ events: ReadonlyArray<HitEvent> }>("/_sim/log?stream=faults-registry&type=FaultHit&limit=500").data?.events ?? []

const AddFault = () => {
  const { act, asOf } = useShared()
  const [body, setBody] = useState(EXAMPLE)
  return (
    <form
      class="fault-form"
      onSubmit={(e) => {
        e.preventDefault()
        void act("add a fault", () => send("POST", "/_sim/faults", JSON.parse(body)))
      }}
    >
      <label for="fault-body">New fault (the body of POST /_sim/faults)</label>
      <textarea
        id="fault-body"
        name="fault"
        rows={6}
        spellcheck={false}
        value={body}
        onInput={(e) => setBody((e.target as HTMLTextAreaElement).value)}
      />
      <button type="submit" disabled={asOf !== null}>
        add fault
      </button>
    </form>
  )
}

const Hits = ({ hits }: { hits: ReadonlyArray<HitEvent> }) =>
  hits.length === 0 ? (
    <p>No request or delivery hit yet.</p>
  ) : (
    <Table label="fault hits">
      <Head columns={["time", "fault", "hit", "#call", "event"]} />
      <tbody>
        {[...hits].reverse().map((h) => (
          <tr key={h.position} data-hit={h.data.requestId ?? h.data.deliveryId ?? ""}>
            <td>{formatTime(h.data.at)}</td>
            <td>
              <FaultBadge faultId={h.data.faultId} />
            </td>
            <td>
              {h.data.requestId !== null ? (
                <>
                  request <code>{h.data.requestId}</code>
                </>
              ) : (
                <>
                  delivery <code>{short(h.data.deliveryId ?? "", 16)}</code>
                </>
              )}
            </td>
            <td class="n">{h.data.call}</td>
            <td>
              <a href={`#/events?at=${h.position}`}>{h.position}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  )

export const FaultsView = () => {
  const { act, asOf } = useShared()
  // The faults in force now: the control plane keeps no earlier list (the log's events have it).
  const { data, error } = useData<{ faults: ReadonlyArray<Fault> }>("/_sim/faults", { asOf: false })
  const hits = useFaultHits()
  const faults = data?.faults ?? []
  return (
    <>
      <Section
        title="Faults"
        actions={
          <button
            type="button"
            disabled={asOf !== null || faults.length === 0}
            onClick={() => confirm("Remove every fault?") && void act("clear the faults", () => send("DELETE", "/_sim/faults"))}
          >
            clear all
          </button>
        }
      >
        <ErrorLine error={error} />
        {data !== undefined && faults.length === 0 ? <p>No faults in force.</p> : null}
        <Table label="faults" empty={faults.length === 0}>
          <Head columns={["id", "target", "match", "effect", "schedule", "#hits", "remove"]} />
          <tbody>
            {faults.map((f) => (
              <tr key={f.id} data-fault={f.id}>
                <td>
                  <code>{f.id}</code>
                </td>
                <td>{f.target}</td>
                <td>{describe(f.match) || "any call"}</td>
                <td>{describe(f.effect)}</td>
                <td>{schedule(f)}</td>
                <td class="n" data-testid="fault-hits">
                  {f.hits}
                </td>
                <td>
                  <button
                    type="button"
                    disabled={asOf !== null}
                    onClick={() => void act("remove the fault", () => send("DELETE", `/_sim/faults/${f.id}`))}
                  >
                    remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
        <AddFault />
      </Section>
      <Section title="Faulted requests and deliveries">
        <Hits hits={hits} />
      </Section>
    </>
  )
}
