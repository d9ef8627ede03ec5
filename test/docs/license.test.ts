// The LICENSE file is the license package.json names: MIT, copyright "custody-sim contributors".
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"

it("LICENSE holds the MIT license package.json declares, for custody-sim contributors", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { license: string }
  const license = readFileSync(new URL("../../LICENSE", import.meta.url), "utf8")
  expect(pkg.license).toBe("MIT")
  expect(license.split("\n")[0]).toBe("MIT License")
  expect(license).toContain("\nCopyright (c) custody-sim contributors\n")
  expect(license).toContain("Permission is hereby granted, free of charge, to any person obtaining a copy")
})
