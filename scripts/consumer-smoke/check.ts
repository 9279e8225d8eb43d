/** The consumer programs' one assertion: a failed check ends the program with a message and exit code 1. */
export function check(ok: boolean, what: string): void {
  if (!ok) {
    console.error(`consumer smoke: FAILED: ${what}`);
    process.exit(1);
  }
  console.log(`  ok: ${what}`);
}

/** The fixture repository the smoke test writes: its path is the first argument. */
export const fixture = process.argv[2] ?? ".";
