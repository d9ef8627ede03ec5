// Fixture files: the JSON of `serve --fixture`, checked as POST /_sim/worlds checks its `fixture` (api/sim/fixture.ts).
import { checkFixture } from "../api/sim/fixture.js"
import type { Fixture } from "../workspace/bootstrap.js"

export const loadFixture = (text: string): Fixture => checkFixture(JSON.parse(text))
