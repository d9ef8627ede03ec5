// The answers of the XRP address utilities (2026-03-20): an X-address, a classic address and its tag.
import { Schema } from "effect"
import { struct } from "./shape.js"

export const XAddress = struct({ xAddress: Schema.String })
export const ClassicAddress = struct({ classicAddress: Schema.String, tag: Schema.String })
