import { Command, CommanderError } from 'commander';
import { isUsageError, OvirError } from '../diag/diagnostic.js';
import { groupedText } from '../diag/group.js';
import { COMMANDS } from './commands.js';
import { stderr, stdout } from './stdio.js';
import { VERSION } from '../version.js';

/** For bin/ovir.js: whether the process may exit at once (see stdio.ts). */
export { outputDrained } from './stdio.js';

/**
 * Exit codes: 0 ok; 1 conversion/validation failure (a model is bad, unsupported, or a check found
 * a contradiction); 2 usage error (no command, unknown option, missing or malformed argument).
 * Only this function decides the exit code; commands return one or throw an OvirError (one whose
 * diagnostics are all CLI_USAGE is a usage error).
 */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2 } as const;

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('ovir')
    .description('Convert models between ONNX and OpenVINO IR (.xml + .bin), control flow included, and prove every conversion right.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => stdout().write(s), writeErr: (s) => stderr().write(s) })
    .showHelpAfterError('(run ovir --help for usage)');
  let code: number = EXIT.OK;
  for (const register of COMMANDS) {
    register(program, (c) => { code = c; });
  }
  if (argv.length <= 2) {
    stderr().write(program.helpInformation());
    return EXIT.USAGE;
  }
  try {
    await program.parseAsync([...argv]);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help, --version: 0; help shown because no command was given: usage.
      return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    if (e instanceof OvirError) {
      stderr().write(isUsageError(e) ? e.diagnostics.map((d) => `ovir: ${d.message}\n`).join('') : groupedText(e.diagnostics));
      return isUsageError(e) ? EXIT.USAGE : EXIT.FAILURE;
    }
    stderr().write(`ovir: internal error (please report): ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.FAILURE;
  }
}
