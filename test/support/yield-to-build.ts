/**
 * Vitest setup file: a test worker (and what it starts: API servers, hubs, build workers) runs at
 * a lower CPU priority than the sample build the global setup started (global-setup.ts), which
 * most files wait for; the files that do not then take what the build leaves. Measured on two
 * cores: beside tests at the same priority the build's encoder training took 637 s instead of 394.
 * Only ever lowered (an unprivileged process cannot raise it back), so it holds across files.
 */
import * as os from "node:os"

const YIELDING = 10

try {
  if (os.getPriority() < YIELDING) os.setPriority(YIELDING)
} catch {
  // A platform or sandbox that refuses: the tests run as they are, only slower.
}
