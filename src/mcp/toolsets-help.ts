// The toolsets and their tools as text, read off the command model: for `lms mcp --help`, and (as
// Markdown) for the README and docs/mcp.md, which test/mcp/toolsets.test.ts keeps in step.
import type { CommandModel } from '../model/command.js';
import { mayDestroy, toolsOf, type Tool } from './tools.js';
import { DEFAULT_TOOLSETS, TOOLSETS, type ToolsetName } from './toolsets.js';

/**
 * A tool's name as listed: `+` when it changes data (--allow-writes), `!` when it may destroy (--allow-destructive).
 */
const marked = (t: Tool) => `${t.name}${mayDestroy(t) ? '!' : t.access === 'write' ? '+' : ''}`;

async function grouped(model: CommandModel): Promise<[ToolsetName, string, Tool[]][]> {
  const tools = await toolsOf(model);
  return (Object.keys(TOOLSETS) as ToolsetName[]).map((set) => [
    set,
    TOOLSETS[set],
    tools.filter((t) => t.toolset === set),
  ]);
}

const LEGEND = `a tool marked + changes data (needs --allow-writes), ! may destroy (needs --allow-destructive)`;
const DEFAULTS =
  `with no toolset named: ${DEFAULT_TOOLSETS.join(', ')}, and the dynamic tools (list_toolsets, ` +
  'describe_toolset, enable_toolset) that reach the rest';

/** For `lms mcp --help`: each toolset, its summary, and its tools wrapped to 80 columns. */
export async function toolsetsHelp(model: CommandModel): Promise<string> {
  const lines = ['', `Toolsets (--toolsets a,b or all; ${DEFAULTS}; ${LEGEND}):`];
  for (const [set, summary, tools] of await grouped(model)) {
    lines.push('', `  ${set}: ${summary}`);
    let line = '   ';
    for (const name of tools.length ? tools.map(marked) : ['(no tools yet)']) {
      if (line.length + name.length + 1 > 80) {
        lines.push(line);
        line = '   ';
      }
      line += ` ${name}`;
    }
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

const START =
  '<!-- toolsets: generated from the command model by npm run man; test/mcp/toolsets.test.ts keeps it in step -->';
const END = '<!-- toolsets: end -->';

/** For docs/mcp.md: a table of the toolsets and their tools, between its markers. */
export async function toolsetsMarkdown(model: CommandModel): Promise<string> {
  const rows = (await grouped(model)).map(
    ([set, summary, tools]) =>
      `| \`${set}\` | ${summary} | ${tools.map((t) => `\`${marked(t)}\``).join(' ') || '(none yet)'} |`,
  );
  return [
    START,
    '',
    '| toolset | what | tools |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `Default, ${DEFAULTS}; ${LEGEND}.`,
    '',
    END,
  ].join('\n');
}

/** For the README, which keeps to 600 lines: the toolsets and their tools on one line, between its markers. */
export async function toolsetsLine(model: CommandModel): Promise<string> {
  const sets = (await grouped(model)).map(
    ([set, , tools]) => `**${set}**: ${tools.map((t) => `\`${marked(t)}\``).join(' ') || '(none yet)'}`,
  );
  return `${START.replace(' -->', ' (one line) -->')}${sets.join('; ')} (${LEGEND})${END}`;
}
