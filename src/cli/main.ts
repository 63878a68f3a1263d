import { Command, CommanderError } from 'commander';
import { formatDiagnostic, OvirError } from '../diag/diagnostic.js';
import { COMMANDS } from './commands.js';
import { VERSION } from '../version.js';

/**
 * Exit codes: 0 ok; 1 conversion/validation failure (a model is bad, unsupported, or a check found
 * a contradiction); 2 usage error (unknown option, missing argument). Only this function decides
 * the exit code; commands return one or throw an OvirError.
 */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2 } as const;

export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('ovir')
    .description('Convert models between ONNX and OpenVINO IR (.xml + .bin), control flow included, and prove every conversion right.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .showHelpAfterError('(run ovir --help for usage)');
  let code: number = EXIT.OK;
  for (const register of COMMANDS) {
    register(program, (c) => { code = c; });
  }
  try {
    await program.parseAsync([...argv]);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.OK;
      return EXIT.USAGE;
    }
    if (e instanceof OvirError) {
      for (const d of e.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
      return EXIT.FAILURE;
    }
    process.stderr.write(`ovir: internal error (please report): ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.FAILURE;
  }
}
