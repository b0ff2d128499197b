// `--data <file>`: the state is a snapshot (<file>, JSON) plus a journal (<file>.journal, one JSON line of changes
// per flush). A write is answered only once its changes are on disk: the answers wait for `commit()`, which appends
// the changes of every request since the last flush in one write and one fdatasync (group commit), so concurrent
// requests share the cost. When the journal grows past a limit, or at a clean stop, the whole state goes into a
// new snapshot (a temporary file, fsynced, renamed) and a fresh journal starts. Both carry a generation, so a crash
// between the two steps never replays an old journal over a newer snapshot. Start-up removes the temporaries of an
// interrupted write, replays the journal (a torn last line is a write that was never answered), and compacts.
import { type FileHandle, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { applyChanges, type Change, StateRecorder } from "./recorder.js";
import { type SandboxState, STATE_VERSION } from "./state.js";

export class SandboxDataError extends Error {}

/** The journal is folded into a new snapshot once it holds this many bytes. */
const COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

export const journalFile = (file: string) => `${file}.journal`;

/** The saved state (snapshot plus journal), or undefined when the file does not exist yet. */
export async function readState(file: string): Promise<SandboxState | undefined> {
  await removeTemporaries(file);
  const text = await readText(file);
  if (text === undefined) return undefined;
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
  replayJournal(journalFile(file), (await readText(journalFile(file))) ?? "", state);
  return state;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SandboxDataError(`cannot read the data file ${file}: ${(error as Error).message}`);
  }
}

/** Applies the journal's lines of the snapshot's generation; a last line without its newline was never answered. */
function replayJournal(file: string, text: string, state: SandboxState): void {
  const lines = text.split("\n");
  lines.pop(); // "" after the last newline, or the torn tail of an interrupted append
  let header: { generation?: number } | undefined;
  try {
    header = lines.length > 0 ? (JSON.parse(lines[0]!) as { generation?: number }) : undefined;
  } catch {
    header = undefined; // not a journal this sandbox wrote
  }
  if (header?.generation !== (state.generation ?? 0)) return; // older than the snapshot, which already holds it
  lines.slice(1).forEach((line, index) => {
    try {
      applyChanges(state, JSON.parse(line) as Change[]);
    } catch (error) {
      throw new SandboxDataError(
        `the journal ${file} is damaged at line ${index + 2} (${(error as Error).message}); move it away to start from ${basename(file.slice(0, -".journal".length))} alone`,
      );
    }
  });
}

/** Temporary files of writes that a crash interrupted: `<file>.<pid>.tmp` and `<file>.<pid>.journal.tmp`. */
async function removeTemporaries(file: string): Promise<void> {
  const prefix = `${basename(file)}.`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix) && name.endsWith(".tmp"))
      .map((name) => rm(join(dirname(file), name), { force: true })),
  );
}

/** Writes `text` to `file` atomically and durably: a temporary file, fsynced, renamed, and the directory fsynced. */
async function replaceFile(file: string, temporary: string, text: string): Promise<void> {
  const handle = await open(temporary, "w", 0o600);
  try {
    await handle.writeFile(text);
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
  const directory = await open(dirname(file), "r");
  await directory.sync().finally(() => directory.close());
}

/** Why the data file cannot be written, in one line that says what to do. */
export function cannotWrite(file: string, error: Error): string {
  const reason =
    (error as NodeJS.ErrnoException).code === "ENOENT"
      ? `the directory ${dirname(file)} does not exist; create it first`
      : error.message;
  return `cannot write the data file ${file}: ${reason}`;
}

export interface DurableState {
  /** The state for the APIs to work on; every change through it is recorded. */
  view: SandboxState;
  /** Notes a change made outside the view to one part of the state (the identity provider's records). */
  touch(part: keyof SandboxState): void;
  /** Resolves once every change made so far is on disk. */
  commit(): Promise<void>;
  /** Folds everything into a new snapshot and closes the journal. */
  close(): Promise<void>;
}

/** Keeps `state` durable in `file`: writes a first snapshot (so a file that cannot be written fails now). */
export async function openDurableState(file: string, state: SandboxState): Promise<DurableState> {
  const recorder = new StateRecorder(state);
  let journal: FileHandle | undefined;
  let journalBytes = 0;
  let queued: string[] = [];
  let flushing: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let broken: Error | undefined;

  async function compact(): Promise<void> {
    recorder.take(); // the snapshot holds these
    state.generation = (state.generation ?? 0) + 1;
    await replaceFile(file, `${file}.${process.pid}.tmp`, JSON.stringify(state));
    await journal?.close();
    const header = `${JSON.stringify({ generation: state.generation })}\n`;
    await replaceFile(journalFile(file), `${file}.${process.pid}.journal.tmp`, header);
    journal = await open(journalFile(file), "a");
    journalBytes = header.length;
  }

  async function flush(): Promise<void> {
    next = undefined;
    const text = queued.join("");
    queued = [];
    if (journalBytes + text.length > COMPACT_AFTER_BYTES) return compact();
    await journal!.appendFile(text);
    await journal!.datasync();
    journalBytes += text.length;
  }

  /** Runs `step` after the current flush; a failed write fails this and every later commit (fail closed). */
  function afterCurrent(step: () => Promise<void>): Promise<void> {
    const run = (flushing ?? Promise.resolve()).then(() => (broken ? Promise.reject(broken) : step()));
    const settled: Promise<void> = run.then(
      () => {
        if (flushing === settled) flushing = undefined;
      },
      (error: Error) => {
        broken ??= error;
        if (flushing === settled) flushing = undefined;
      },
    );
    flushing = settled;
    return run;
  }

  await compact();
  return {
    view: recorder.view(),
    touch: (part) => recorder.touch(state, part),
    commit() {
      if (broken) return Promise.reject(broken);
      const changes = recorder.take();
      if (changes.length > 0) queued.push(`${JSON.stringify(changes)}\n`);
      if (queued.length === 0) return flushing ?? Promise.resolve();
      // Every request queued before this flush starts shares it: one write, one fdatasync.
      next ??= afterCurrent(flush);
      return next;
    },
    async close() {
      await afterCurrent(async () => {
        queued = [];
        await compact();
        await journal?.close();
        journal = undefined;
      });
    },
  };
}
