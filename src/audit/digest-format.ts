// The one way a digest of the API's answers is shown, wherever it is printed or answered (the audit's text and
// HTML, `custody-sim replay`, `POST /_sim/import`, the benchmark's log digest): `sha256:` and all 64 hex digits.
export const shownDigest = (sha256Hex: string): string => `sha256:${sha256Hex}`
