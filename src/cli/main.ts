import { Command, CommanderError } from 'commander';
import { diagnosticToJson, isUsageError, OvirError } from '../diag/diagnostic.js';
import { groupedText } from '../diag/group.js';
import { COMMANDS } from './commands.js';
import { stderr, stdout } from './stdio.js';
import { VERSION } from '../version.js';
import { existsSync } from 'node:fs';
import { foreignFormat, formatOf } from '../io/format.js';

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
    await program.parseAsync(asOvcCall(program, argv));
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help, --version: 0; help shown because no command was given: usage.
      return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    // anything else is ovir's own fault: an INTERNAL diagnostic like any other
    const failure = e instanceof OvirError ? e : OvirError.of('INTERNAL', '', { detail: e instanceof Error ? e.message : String(e) });
    const usage = isUsageError(failure);
    // --json promises JSON on stdout whatever happens (a command that fails before its own output)
    if (wantsJson(argv)) stdout().write(JSON.stringify({ ok: false, diagnostics: failure.diagnostics.map(diagnosticToJson) }) + '\n');
    else if (usage) stderr().write(failure.diagnostics.map((d) => `ovir: ${d.message}\n`).join(''));
    else if (e instanceof OvirError) stderr().write(groupedText(e.diagnostics));
    else stderr().write(`ovir: ${failure.diagnostics[0]!.message}\n`);
    return usage ? EXIT.USAGE : EXIT.FAILURE;
  }
}

/**
 * ovc is called with the model first (`ovc model.onnx --output_model out.xml`): a first argument
 * that is no command but a model file — by its extension (.onnx, .xml, or another framework's,
 * which convert then names), or a file that exists — is `ovir convert` of it.
 */
function asOvcCall(program: Command, argv: readonly string[]): string[] {
  const first = argv[2]!;
  const commands = new Set(['help', ...program.commands.flatMap((c) => [c.name(), ...c.aliases()])]);
  if (first.startsWith('-') || commands.has(first)) return [...argv];
  if (formatOf(first) === null && foreignFormat(first) === '' && !existsSync(first)) return [...argv];
  return [argv[0]!, argv[1]!, 'convert', ...argv.slice(2)];
}

/** Whether `--json` is among the options (before a `--` that ends them). */
function wantsJson(argv: readonly string[]): boolean {
  for (let i = 2; i < argv.length && argv[i] !== '--'; i++) if (argv[i] === '--json') return true;
  return false;
}
