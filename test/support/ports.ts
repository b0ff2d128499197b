// Fixed loopback ports for tests that must name a port before a server exists (a CLI's --port/--base-port, a
// message that quotes the port). Every file keeps its own range (4100-4999); vitest runs files in parallel in up to
// MAX_WORKERS workers, and each worker shifts the ranges by 1000 so two files never meet on a port. Servers started
// in-process listen on port 0 instead and report their real address; a command told its port (an installed CLI, a
// static site) may take one the system hands out (freePort).
import { connect, createServer } from "node:net";

/** Most workers vitest.config.ts runs: 4 on 2 cores, because many files spend much of their time waiting (sign-in
 * flows and their auth_time seconds, page loads, processes starting): with 3, the cores idled a third of the second
 * half of the run (npm test 126 -> 112 s side by side). The blocks stay far below the ephemeral range. */
export const MAX_WORKERS = 4;

/** Shifts every block, so that test runs of two checkouts on one machine never meet on a port (TEST_PORT_OFFSET,
 * a multiple of 4000 below 24000: the blocks must stay below the ephemeral range, which starts at 32768). */
const CHECKOUT_OFFSET = Number(process.env.TEST_PORT_OFFSET ?? "0");

/** `port` moved into this worker's block (VITEST_POOL_ID counts workers from 1). */
export function testPort(port: number): number {
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  if (!Number.isInteger(worker) || worker < 1 || worker > MAX_WORKERS) {
    throw new Error(`VITEST_POOL_ID ${process.env.VITEST_POOL_ID} is outside 1-${MAX_WORKERS}`);
  }
  if (!Number.isInteger(CHECKOUT_OFFSET) || CHECKOUT_OFFSET < 0 || CHECKOUT_OFFSET > 24_000 || CHECKOUT_OFFSET % 4000) {
    throw new Error(`TEST_PORT_OFFSET ${process.env.TEST_PORT_OFFSET} is not a multiple of 4000 from 0 to 24000`);
  }
  return port + 1000 * (worker - 1) + CHECKOUT_OFFSET;
}

/** Whether something accepts connections on 127.0.0.1:`port` (a server a test started, or one that should be gone). */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A loopback port nothing listens on now, as the system hands it out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
