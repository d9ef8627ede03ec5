// Transaction requests: status, approvals given and required, the status history; approve or reject the waiting.
import { Fragment } from "preact"
import { useState } from "preact/hooks"
import { send } from "../api.js"
import { DetailRow, ErrorLine, Head, Pager, Section, short, Table, Toggle, usePager, type Page } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"

interface RequestRow {
  transactionRequestId: string
  vaultId: string
  blockchain: string
  network: string
  totalTransactionAmount: string
  unit: string
  transactionRequestStatus: string
  approvalLevels: number
  createdAt: number
  recipients: ReadonlyArray<{ address: string; amount: string }>
  history: ReadonlyArray<{ position: number; time: number | null; status: string }>
}

const WAITING = new Set(["await-approval", "await-approval-l2"])

const approvalsGiven = (r: RequestRow) => {
  if (r.approvalLevels === 0) return "none needed"
  const statuses = r.history.map((h) => h.status)
  const rejected = statuses.includes("rejected")
  const given = statuses.includes("await-approval-l2")
    ? 1 + (statuses.some((s) => !WAITING.has(s) && s !== "rejected") ? 1 : 0)
    : statuses.some((s) => !WAITING.has(s) && s !== "rejected")
      ? 1
      : 0
  return `${given} of ${r.approvalLevels}${rejected ? ", rejected" : ""}`
}

/** Approve and reject, for a request awaiting approval; not while the dashboard shows an earlier point. */
const Decide = ({ requestId }: { readonly requestId: string }) => {
  const { act, asOf } = useShared()
  return (
    <span class="inline">
      <button
        type="button"
        disabled={asOf !== null}
        onClick={() => void act("approve", () => send("POST", `/_sim/transaction-requests/${requestId}/approve`, {}))}
      >
        approve
      </button>
      <button
        type="button"
        disabled={asOf !== null}
        onClick={() =>
          void act("reject", () =>
            send("POST", `/_sim/transaction-requests/${requestId}/reject`, {
              reason: "rejected in the dashboard",
            }),
          )
        }
      >
        reject
      </button>
    </span>
  )
}

export const RequestsView = () => {
  const [status, setStatus] = useState("")
  const pager = usePager(20)
  const { data, error } = useData<Page<RequestRow>>(`/_sim/transaction-requests?${status !== "" ? `status=${status}&` : ""}${pager.query}`)
  const [open, setOpen] = useState<string | null>(null)
  return (
    <Section
      title="Transaction requests"
      actions={
        <label>
          status{" "}
          <select
            name="status"
            value={status}
            onChange={(e) => {
              setStatus((e.target as HTMLSelectElement).value)
              pager.reset()
            }}
          >
            <option value="">any</option>
            <option value="await-approval,await-approval-l2">awaiting approval</option>
            <option value="broadcasted">broadcasted</option>
            <option value="mined">mined</option>
            <option value="success">success</option>
            <option value="failed,mined-with-errors">failed</option>
            <option value="rejected">rejected</option>
          </select>
        </label>
      }
    >
      <ErrorLine error={error} onReset={pager.reset} />
      {data !== undefined && data.items.length === 0 ? <p>No requests.</p> : null}
      <Table label="transaction requests" empty={data !== undefined && data.items.length === 0}>
        <Head columns={["created", "request", "#amount", "status", "approvals", "decide"]} />
        <tbody>
          {(data?.items ?? []).map((r) => (
            <Fragment key={r.transactionRequestId}>
              <tr data-request={r.transactionRequestId}>
                <td>{formatTime(r.createdAt)}</td>
                <td>
                  <Toggle
                    open={open === r.transactionRequestId}
                    onToggle={() => setOpen(open === r.transactionRequestId ? null : r.transactionRequestId)}
                  >
                    <code>{short(r.transactionRequestId, 12)}</code>
                  </Toggle>{" "}
                  <small>
                    {r.blockchain}/{r.network} → {short(r.recipients[0]?.address ?? "", 10)}
                  </small>
                </td>
                <td class="n">
                  {r.totalTransactionAmount} {r.unit}
                </td>
                <td data-testid="request-status">{r.transactionRequestStatus}</td>
                <td>{approvalsGiven(r)}</td>
                <td>{WAITING.has(r.transactionRequestStatus) ? <Decide requestId={r.transactionRequestId} /> : null}</td>
              </tr>
              <DetailRow open={open === r.transactionRequestId} span={6}>
                <ol class="history">
                  {r.history.map((h) => (
                    <li>
                      {h.status} · {formatTime(h.time)} · <a href={`#/events?at=${h.position}`}>event {h.position}</a>
                    </li>
                  ))}
                </ol>
              </DetailRow>
            </Fragment>
          ))}
        </tbody>
      </Table>
      <Pager pager={pager} page={data} idOf={(r: RequestRow) => r.transactionRequestId} />
    </Section>
  )
}
