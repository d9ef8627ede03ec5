// The audit as of the chosen position: the control plane's HTML report (its own charts) in a frame.
import { useState } from "preact/hooks"
import { withAsOf } from "../api.js"
import { Section } from "../parts.js"
import { useShared } from "../state.js"

export const AuditView = () => {
  const { asOf } = useShared()
  const [run, setRun] = useState<{ url: string; n: number } | null>(null)
  return (
    <Section
      title="Audit"
      actions={
        <button type="button" onClick={() => setRun({ url: withAsOf("/_sim/audit", asOf), n: (run?.n ?? 0) + 1 })}>
          run the audit{asOf !== null ? ` as of position ${asOf}` : ""}
        </button>
      }
    >
      {run === null ? (
        <p>Reconciles every balance against the events and draws each balance over time.</p>
      ) : (
        <iframe key={run.n} class="report" title="audit report" src={run.url} />
      )}
    </Section>
  )
}
