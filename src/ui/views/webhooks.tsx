// Webhook subscriptions and their delivery log: each attempt with its status code, the payload, redelivery; a
// delivery a fault hit carries the fault's id.
import { Fragment } from "preact"
import { useState } from "preact/hooks"
import { send } from "../api.js"
import { DetailRow, ErrorLine, Head, Json, Section, short, StepNav, Table, Toggle } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"
import { FaultBadge, useFaultHits } from "./faults.js"

interface Subscription {
  id: string
  url: string
  events: ReadonlyArray<string>
  status: string
  deliveries: { total: number; pending: number; delivered: number; givenUp: number }
}
interface Delivery {
  id: string
  event: string
  status: string
  createdAt: number
  redeliveries: number
  attempts: ReadonlyArray<{ at: number; statusCode?: number | null; error?: string | null; durationMs?: number }>
  payload: unknown
}

const Deliveries = ({ webhookId }: { webhookId: string }) => {
  const { act, asOf } = useShared()
  const [after, setAfter] = useState<ReadonlyArray<string>>([])
  const cursor = after[after.length - 1]
  const { data, error } = useData<{ deliveries: ReadonlyArray<Delivery>; hasMore: boolean }>(
    `/_sim/webhooks/${webhookId}/deliveries?limit=20${cursor !== undefined ? `&startingAfter=${cursor}` : ""}`,
  )
  const [open, setOpen] = useState<string | null>(null)
  const faulted = new Map(useFaultHits().map((h) => [h.data.deliveryId, h.data.faultId]))
  return (
    <>
      <ErrorLine error={error} />
      <Table label="deliveries">
        <Head columns={["created", "event", "status", "attempts (status code)", "redeliver"]} />
        <tbody>
          {(data?.deliveries ?? []).map((d) => (
            <Fragment key={d.id}>
              <tr data-delivery={d.id}>
                <td>{formatTime(d.createdAt)}</td>
                <td>
                  <Toggle open={open === d.id} onToggle={() => setOpen(open === d.id ? null : d.id)}>
                    {d.event}
                  </Toggle>
                </td>
                <td>
                  <span data-testid="delivery-status">{d.status}</span>
                  {faulted.has(d.id) ? (
                    <>
                      {" "}
                      <FaultBadge faultId={faulted.get(d.id)!} />
                    </>
                  ) : null}
                </td>
                <td data-testid="delivery-attempts">
                  {d.attempts.length} ({d.attempts.map((a) => a.statusCode ?? a.error ?? "—").join(", ")})
                </td>
                <td>
                  <button
                    type="button"
                    disabled={asOf !== null}
                    onClick={() =>
                      void act("redeliver", () => send("POST", `/_sim/webhooks/${webhookId}/deliveries/${d.id}/redeliver`, {}))
                    }
                  >
                    redeliver
                  </button>
                </td>
              </tr>
              <DetailRow open={open === d.id} span={5}>
                <ol class="history">
                  {d.attempts.map((a) => (
                    <li>
                      {formatTime(a.at)} · {a.statusCode ?? "no answer"} {a.error ?? ""}{" "}
                      {a.durationMs !== undefined ? `· ${a.durationMs} ms` : ""}
                    </li>
                  ))}
                </ol>
                <Json value={d.payload} />
              </DetailRow>
            </Fragment>
          ))}
        </tbody>
      </Table>
      <StepNav
        back={after.length === 0 ? undefined : () => setAfter(after.slice(0, -1))}
        next={data?.hasMore === true ? () => setAfter([...after, data.deliveries[data.deliveries.length - 1]!.id]) : undefined}
      />
    </>
  )
}

export const WebhooksView = () => {
  const { data, error } = useData<{ webhooks: ReadonlyArray<Subscription> }>("/_sim/webhooks")
  const [chosen, setChosen] = useState<string | null>(null)
  return (
    <Section title="Webhook subscriptions">
      <ErrorLine error={error} />
      {data !== undefined && data.webhooks.length === 0 ? <p>No subscriptions (POST /_sim/webhooks creates one).</p> : null}
      <Table label="subscriptions">
        <Head columns={["url", "events", "status", "#delivered / pending / given up"]} />
        <tbody>
          {(data?.webhooks ?? []).map((w) => (
            <tr key={w.id}>
              <td>
                <button type="button" class="link" aria-pressed={chosen === w.id} onClick={() => setChosen(w.id)}>
                  {short(w.url, 40)}
                </button>
              </td>
              <td>{w.events.join(", ")}</td>
              <td>{w.status}</td>
              <td class="n">
                {w.deliveries.delivered} / {w.deliveries.pending} / {w.deliveries.givenUp}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {chosen !== null && data?.webhooks.some((w) => w.id === chosen) === true ? <Deliveries webhookId={chosen} /> : null}
    </Section>
  )
}
