import { signalGroup } from "./group.js";

/** A running process group that the registry can stop. */
export interface LiveGroup {
  readonly pgid: number;
  /** Stops the group in its owner's way (a command: kill; a server: staged close); resolves when it is gone. */
  close(): Promise<void>;
}

const live = new Set<LiveGroup>();
let exitHooked = false;

/**
 * Registers a group that has just started; returns the function that forgets it once it is gone. While
 * registered, the group is killed (SIGKILL, synchronously) if this process exits first: detached children
 * outlive their parent otherwise. (Death by an unhandled signal runs no exit handler; hosts that want the
 * same then call {@link closeAll} from their own signal handler.)
 */
export function trackGroup(group: LiveGroup): () => void {
  live.add(group);
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      for (const { pgid } of live) signalGroup(pgid, "SIGKILL");
    });
  }
  return () => void live.delete(group);
}

/** Number of process groups started through `@skillctx/process` that are still running. */
export function liveGroupCount(): number {
  return live.size;
}

/**
 * Stops every process group that `@skillctx/process` started in this process and that is still running
 * (commands are killed, long-lived children closed in stages); resolves when they are gone. Pending
 * `runProcess` calls reject with a {@link ProcessClosedError}. Nothing stops later calls from starting new
 * processes: for that, give them a {@link ProcessScope} and close it.
 */
export async function closeAll(): Promise<void> {
  await Promise.all([...live].map((group) => group.close()));
}
