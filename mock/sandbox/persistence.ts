// `--data <file>`: the state is read at start-up and written after every change, atomically (a temporary file in
// the same directory, flushed to disk, then renamed over the old one), so a crash never leaves a broken file.
import { open, readFile, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { type SandboxState, STATE_VERSION } from "./state.js";

export class SandboxDataError extends Error {}

/** The saved state, or undefined when the file does not exist yet. */
export async function readState(file: string): Promise<SandboxState | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SandboxDataError(`cannot read the data file ${file}: ${(error as Error).message}`);
  }
  let state: SandboxState;
  try {
    state = JSON.parse(text) as SandboxState;
  } catch (error) {
    throw new SandboxDataError(
      `the data file ${file} is not valid JSON (${(error as Error).message}); move it away to start from the demo data`,
    );
  }
  if (state?.version !== STATE_VERSION) {
    throw new SandboxDataError(
      `the data file ${file} has version ${String(state?.version)}, this sandbox reads version ${String(STATE_VERSION)}; move it away to start from the demo data`,
    );
  }
  return state;
}

export async function writeStateAtomically(file: string, state: SandboxState): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, "w", 0o600);
  try {
    await handle.writeFile(JSON.stringify(state));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Why the data file cannot be written, in one line that says what to do. */
export function cannotWrite(file: string, error: Error): string {
  const reason =
    (error as NodeJS.ErrnoException).code === "ENOENT"
      ? `the directory ${dirname(file)} does not exist; create it first`
      : error.message;
  return `cannot write the data file ${file}: ${reason}`;
}

export interface StateWriter {
  /** Schedules a write soon; many changes in a burst become one write. */
  schedule(): void;
  /** Writes now if anything is pending and waits for every write to finish. */
  flush(): Promise<void>;
}

export function createStateWriter(
  file: string,
  state: SandboxState,
  options: { delayMs?: number; onError?: (error: Error) => void } = {},
): StateWriter {
  const delayMs = options.delayMs ?? 25;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();

  function write(): Promise<void> {
    timer = undefined;
    if (!dirty) return writing;
    dirty = false;
    // Writes run one after another, each with the state as it is when it starts.
    writing = writing.then(() => writeStateAtomically(file, state)).catch((error: Error) => options.onError?.(error));
    return writing;
  }

  return {
    schedule() {
      dirty = true;
      timer ??= setTimeout(() => void write(), delayMs);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      await write();
    },
  };
}
