// `lms mcp`: the commands as Model Context Protocol tools, over stdio. stdout carries the protocol
// and nothing else; what a verb would print on stderr goes into its result (and, with -v, to stderr).
import type { CommandModel } from '../model/command.js';
import type { Context } from '../model/context.js';
import { err } from '../io/streams.js';
import { callTool, newCursorKey, type Session } from './call.js';
import { instanceDirectory } from './directory.js';
import { DATA_NOTICE } from './fence.js';
import { pseudonymKey } from './pseudonym-key.js';
import { Pseudonyms, type Scope } from './pseudonyms.js';
import { toolsOf, type Tool } from './tools.js';
import { Offer, type Selection } from './offer.js';

export interface McpOptions {
  allowWrites: boolean;
  allowDestructive: boolean;
  /** Who results name by pseudonym: students and observers, or everyone. */
  pseudonymize?: Scope;
  /** The file that keeps the pseudonyms' key across sessions. */
  pseudonymKey?: string;
  /** The toolsets offered at start, and whether tools to enable others are. */
  selection: Selection;
}

/** Serves until the client closes stdin. */
export async function serveMcp(ctx: Context, model: CommandModel, options: McpOptions): Promise<void> {
  // Read before the server answers anything: a key file others can read stops it here (exit 2).
  const pseudonyms = options.pseudonymize
    ? new Pseudonyms({
        scope: options.pseudonymize,
        key: pseudonymKey(options.pseudonymKey),
        instance: async () => (await ctx.client()).baseUrl,
        directory: instanceDirectory(() => ctx.client()),
      })
    : undefined;
  const sdk = await import('./sdk.js');
  // Built once the server answers: initialize needs only the SDK, and the nouns load next.
  let toolsBuilt: Promise<Tool[]> | undefined;
  const toolsReady = () => (toolsBuilt ??= toolsOf(model));
  const session: Session = {
    ctx,
    model,
    allowWrites: options.allowWrites || options.allowDestructive,
    allowDestructive: options.allowDestructive,
    cursorKey: newCursorKey(),
    pseudonyms,
    log: ctx.globals.verbose ? (text) => err(ctx.io, text) : undefined,
  };
  const mode = session.allowDestructive
    ? 'reads, writes and deletions'
    : session.allowWrites
      ? 'reads and writes; deletions refused'
      : 'reads only';
  const offer = new Offer(options.selection, session);
  const server = new sdk.Server(
    { name: 'lms', title: 'lms: a Canvas-style LMS', version: __LMS_VERSION__ },
    {
      capabilities: { tools: offer.dynamic ? { listChanged: true } : {} },
      // Used only on a client's answer to an elicitation, which this server never asks for; the
      // SDK's default (ajv) is left out of the build.
      jsonSchemaValidator: {
        getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'lms mcp asks for no input' }),
      },
      instructions: [
        'Tools for a Canvas-style learning platform ' +
          `(${ctx.mockMode ? 'the built-in mock instance' : 'the instance lms is configured for'}), one per lms ` +
          `command; this server allows ${mode}.`,
        'Ids may be numbers or SIS forms (sis_course_id:X, sis_user_id:X); self means you. Lists answer a page at a ' +
          'time: limit items (25 unless given), more: true when there are more, and next_cursor to pass back as ' +
          'cursor for the next page.',
        'A text field longer than a result holds is cut: left_out names it, and read_rest with its rest handle ' +
          'reads on.',
        ...(session.allowWrites
          ? [
              'Tools that change data take dry_run, which answers with the request they would send and sends ' +
                'nothing. Tools whose annotations say destructiveHint need lms mcp --allow-destructive.',
            ]
          : []),
        ...offer.instructions(),
        ...(session.allowDestructive
          ? [
              'A call that destroys data (a deletion, a conclusion, a flag that deactivates) does nothing at first: ' +
                'it answers with its plan and a confirm token. Show that plan to the person and ask them; only once ' +
                'they agree, call the same tool again with the same arguments and confirm set to the token. A token ' +
                'runs its call once, within 10 minutes, in this server only.',
            ]
          : []),
        ...(pseudonyms
          ? [
              'People are named by pseudonym ' +
                `(${pseudonyms.scope === 'all' ? 'everyone' : 'students and observers; staff by name'}): "Student ` +
                '7f3a9c01" for a name, student-7f3a9c01 for a login or SIS id, student-7f3a9c01@pseudonym.invalid ' +
                `for an email. Use them as they are wherever a tool takes a user, or in a file's user column or key ` +
                `(a CSV's user, a course file's user:): the server maps them back to the real person. Text you ` +
                'write (a message, a comment) is sent as you wrote it, pseudonyms and all: address people there as ' +
                'you want them to read it. Ids are real.',
            ]
          : []),
        DATA_NOTICE,
      ].join(' '),
    },
  );

  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({
    tools: offer.listed(await toolsReady()),
  }));

  server.setRequestHandler(sdk.CallToolRequestSchema, async (request) => {
    const tools = await toolsReady();
    const name = request.params.name;
    const own = offer.call(name, request.params.arguments, tools);
    if (own) {
      const result = await own;
      if (result.changed) await server.sendToolListChanged();
      return result.result;
    }
    const tool = tools.find((t) => t.name === name);
    const withheld = tool && offer.withheld(tool);
    if (withheld) return withheld;
    if (!tool) {
      const near = tools.filter((t) => t.name.startsWith(name.split('_')[0])).map((t) => t.name);
      throw new sdk.McpError(
        sdk.ErrorCode.InvalidParams,
        `unknown tool "${name}"${near.length ? `; the ${name.split('_')[0]} tools are ${near.join(', ')}` : ''}`,
      );
    }
    const started = performance.now();
    const result = await callTool(tool, request.params.arguments, session);
    session.log?.(
      `mcp: ${name} ${result.isError ? 'failed' : 'ok'} in ${Math.round(performance.now() - started)} ms\n`,
    );
    return result;
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new sdk.StdioServerTransport());
  setImmediate(() => void toolsReady().catch(() => undefined));
  if (ctx.globals.verbose) err(ctx.io, `mcp: serving ${mode} over stdio\n`);
  await closed;
}
