// The event log up to the as-of position, filtered by stream and type; any event's JSON opens in place.
import { Fragment } from "preact"
import { useEffect, useState } from "preact/hooks"
import { DetailRow, ErrorLine, Head, Json, Section, StepNav, Table, Toggle } from "../parts.js"
import { formatTime, useData } from "../state.js"

interface LoggedEvent {
  position: number
  stream: string
  revision: number
  id: string
  type: string
  data: unknown
  metadata: { at?: number }
}

export const EventsView = ({ at }: { at: number | null }) => {
  const [stream, setStream] = useState("")
  const [type, setType] = useState("")
  const [from, setFrom] = useState<ReadonlyArray<number>>(at !== null ? [at] : [])
  const [open, setOpen] = useState<number | null>(at)
  useEffect(() => {
    if (at !== null) {
      setFrom([at])
      setOpen(at)
    }
  }, [at])
  const start = from[from.length - 1] ?? 0
  const { data, error } = useData<{ events: ReadonlyArray<LoggedEvent>; nextPosition?: number }>(
    `/_sim/log?fromPosition=${start}&limit=50&stream=${encodeURIComponent(stream)}&type=${encodeURIComponent(type)}`,
  )
  return (
    <Section title="Event log">
      <form class="inline" onSubmit={(e) => (e.preventDefault(), setFrom([]))}>
        <label>
          stream{" "}
          <input
            name="stream"
            placeholder="vault-… or a category"
            value={stream}
            onInput={(e) => setStream((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          type{" "}
          <input
            name="type"
            placeholder="e.g. ChainBlocksMined"
            value={type}
            onInput={(e) => setType((e.target as HTMLInputElement).value)}
          />
        </label>
      </form>
      <ErrorLine error={error} />
      <Table label="events">
        <Head columns={["#position", "time", "stream", "type"]} />
        <tbody>
          {(data?.events ?? []).map((e) => (
            <Fragment key={e.position}>
              <tr class={open === e.position ? "selected" : ""}>
                <td class="n">{e.position}</td>
                <td>{formatTime(e.metadata.at)}</td>
                <td>
                  <code>{e.stream}</code>
                </td>
                <td>
                  <Toggle open={open === e.position} onToggle={() => setOpen(open === e.position ? null : e.position)}>
                    {e.type}
                  </Toggle>
                </td>
              </tr>
              <DetailRow open={open === e.position} span={4}>
                <Json value={e} />
              </DetailRow>
            </Fragment>
          ))}
        </tbody>
      </Table>
      <StepNav
        back={from.length === 0 ? undefined : () => setFrom(from.slice(0, -1))}
        next={data?.nextPosition !== undefined ? () => setFrom([...from, data.nextPosition!]) : undefined}
      />
    </Section>
  )
}
