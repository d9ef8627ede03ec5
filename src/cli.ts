#!/usr/bin/env node
// The `custody-sim` command (see src/cli/program.ts).
import { main } from "./cli/program.js"

await main(process.argv)
