// When a long-running command (`contracts mock`, `contracts sandbox`) should stop. Its own module, with nothing but
// node:fs to load, so that the CLI watches the signals from its first moment, before it loads anything heavy.
import { readFileSync } from "node:fs";

let stopRequested: Promise<string> | undefined;

/**
 * Resolves, with a word saying why, when the command should stop: on the first SIGINT, SIGTERM or SIGHUP, or when
 * the process that started it is gone (a supervisor, `npm` or a terminal killed with SIGKILL cannot pass a signal
 * on, so the orphaned command would otherwise keep its ports). Watching starts at the first call and lasts as long
 * as the process: the CLI calls it before it loads a long-running command, so that a signal during start-up stops
 * the command once it is up instead of killing it half-started, and a repeated signal (npm passes on the Ctrl-C
 * that the terminal also sent to the whole process group) does not kill it while it stops.
 */
export function untilSignal(): Promise<string> {
  stopRequested ??= new Promise((resolve) => {
    const orphaned = orphanCheck();
    const stop = (reason: string) => {
      clearInterval(watch);
      resolve(reason);
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
    const watch = setInterval(() => {
      const reason = orphaned();
      if (reason) stop(reason);
    }, 250);
    watch.unref();
  });
  return stopRequested;
}

/**
 * A check that names the reason once the process that started this one is gone. Linux reparents an orphan, and
 * process.ppid reads the current parent each time. `npm start` and `npx` run us through `sh -c`, which stays
 * between them and us (dash does not exec the command) and outlives an npm killed by SIGHUP or SIGKILL: through
 * such a shell, the shell's own parent is watched too (on Linux, where /proc tells).
 */
function orphanCheck(): () => string | undefined {
  const parent = process.ppid;
  const starter = isShellRunningCommand(parent) ? parentOf(parent) : undefined;
  return () => {
    if (process.ppid !== parent) return `parent process ${parent} exited`;
    if (starter !== undefined && parentOf(parent) !== starter)
      return `process ${starter}, which ran this command through sh -c, exited`;
    return undefined;
  };
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function isShellRunningCommand(pid: number): boolean {
  try {
    const [program, flag] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return /(^|\/)(sh|dash|bash|ash|zsh|ksh)$/.test(program ?? "") && flag === "-c";
  } catch {
    return false;
  }
}
