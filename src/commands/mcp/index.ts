// `lms mcp`: every command an assistant may use, as a tool of a Model Context Protocol server on
// stdio. Always registered, so this stays small: the server is in src/mcp, loaded when it runs.
import type { CommandModel } from '../../model/command.js';
import { command } from '../../model/define.js';
import { UsageError } from '../../errors.js';

/** `lms mcp`, offering the verbs of `model` (the registry hands it the one it is part of). */
export const mcpCommand = (model: CommandModel) =>
  command({
    name: 'mcp',
    summary:
      'Serve the commands as tools to an AI assistant (Model Context Protocol over stdio); reads only unless ' +
      '--allow-writes',
    options: {
      toolsets: {
        long: 'toolsets',
        value: 'names',
        description:
          'offer the tools of these toolsets (comma-separated; all; default: courses,roster,grading and the dynamic ' +
          'tools); env LMS_MCP_TOOLSETS',
      },
      dynamicToolsets: {
        long: 'dynamic-toolsets',
        description:
          'offer tools that list, describe and enable toolsets at run time (alone: only those, to start with)',
      },
      allowWrites: { long: 'allow-writes', description: 'also offer the tools that change data (each takes dry_run)' },
      allowDestructive: {
        long: 'allow-destructive',
        description: 'also allow deletions, conclusions, --sync and --prune (implies --allow-writes)',
      },
      pseudonymize: {
        long: 'pseudonymize',
        value: 'who',
        valueOptional: true,
        choices: ['students', 'all'],
        description:
          'name students and observers by pseudonym in every result (=all: staff too); tools take the pseudonyms back',
      },
      pseudonymKey: {
        long: 'pseudonym-key',
        value: 'file',
        description:
          "keep the pseudonyms' key in this file (made 0600 if missing), so a person keeps theirs across sessions",
      },
    },
    examples: [
      'lms mcp',
      'lms mcp --toolsets roster,grading',
      'lms mcp --dynamic-toolsets',
      'lms -p prod mcp --toolsets all --allow-writes',
      'lms --mock mcp --allow-writes --allow-destructive',
      'lms mcp --pseudonymize --pseudonym-key ~/.config/lms/pseudonym.key',
    ],
    helpAfter: async () => (await import('../../mcp/toolsets-help.js')).toolsetsHelp(model),
    async run({ opts, ctx }) {
      // commander gives true for the flag alone, its value for --pseudonymize=all.
      const who: unknown = opts.pseudonymize;
      if (opts.pseudonymKey !== undefined && who === undefined)
        throw new UsageError('--pseudonym-key needs --pseudonymize');
      const named = opts.toolsets ?? (ctx.env.LMS_MCP_TOOLSETS || undefined);
      const [{ serveMcp }, { parseToolsets }, { selectionOf }] = await Promise.all([
        import('../../mcp/server.js'),
        import('../../mcp/toolsets.js'),
        import('../../mcp/offer.js'),
      ]);
      const toolsets =
        named === undefined
          ? undefined
          : parseToolsets(named, opts.toolsets !== undefined ? '--toolsets' : 'LMS_MCP_TOOLSETS');
      await serveMcp(ctx, model, {
        selection: selectionOf(toolsets, opts.dynamicToolsets === true),
        allowWrites: opts.allowWrites === true,
        allowDestructive: opts.allowDestructive === true,
        pseudonymize: who === undefined ? undefined : who === 'all' ? 'all' : 'students',
        pseudonymKey: opts.pseudonymKey,
      });
      return undefined;
    },
  });
