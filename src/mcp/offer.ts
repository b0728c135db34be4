// What a server offers: the tools of the toolsets enabled (at start by --toolsets, then by
// enable_toolset in the dynamic mode), within what its flags allow, and the server's own tools:
// the dynamic mode's three and read_rest. Enabling a toolset adds its tools as the flags allow
// them: never a write on a server that only reads, never a destruction without --allow-destructive.
import { readRest, type Session, type ToolResult } from './call.js';
import { DEFAULT_TOOLSETS, isToolset, TOOLSETS, type ToolsetName } from './toolsets.js';
import type { ObjectSchema } from './output-schema.js';
import { mayDestroy, type Tool } from './tools.js';

export interface Selection {
  toolsets: ReadonlySet<ToolsetName>;
  /** The tools that list, describe and enable toolsets are offered. */
  dynamic: boolean;
}

/** What `lms mcp` offers with no toolset named: the default toolsets, and the way to the others. */
export const DEFAULT_SELECTION: Selection = { toolsets: new Set(DEFAULT_TOOLSETS), dynamic: true };

/** A tool as tools/list describes it. */
export interface Listed {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: ObjectSchema;
  annotations: Record<string, unknown>;
}

const NAME = { type: 'string', enum: Object.keys(TOOLSETS) };
const TOOLSET_LIST: ObjectSchema = {
  type: 'object',
  properties: { items: { type: 'array' }, count: { type: 'integer' } },
};
const TOOLSET_TOOLS: ObjectSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    summary: { type: 'string' },
    enabled: { type: 'boolean' },
    tools: { type: 'array' },
    added: { type: 'array' },
    error: { type: 'object' },
  },
};

/** The server's own tools: the dynamic mode's, then read_rest, which every server offers. */
const OWN: (Listed & { dynamic: boolean })[] = [
  {
    name: 'list_toolsets',
    summary: 'The toolsets: each one a group of tools, and whether it is enabled',
    input: {},
    output: TOOLSET_LIST,
  },
  {
    name: 'describe_toolset',
    summary: "A toolset's tools, with what each does",
    input: { toolset: NAME },
    output: TOOLSET_TOOLS,
  },
  {
    name: 'enable_toolset',
    summary: "Offer a toolset's tools from now on (tools/list changes)",
    input: { toolset: NAME },
    output: TOOLSET_TOOLS,
  },
  {
    name: 'read_rest',
    summary: 'The rest of a text field a result cut, from its left_out rest handle',
    input: { rest: { type: 'string' }, offset: { type: 'integer', minimum: 0 } },
    output: {
      type: 'object' as const,
      properties: {
        text: { type: 'string' },
        offset: { type: 'integer' },
        left: { type: 'integer' },
        error: { type: 'object' },
      },
    },
  },
].map(({ name, summary, input, output }) => ({
  name,
  title: name.replace('_', ' '),
  description: summary,
  inputSchema: {
    type: 'object',
    properties: input,
    ...(Object.keys(input).length ? { required: [Object.keys(input)[0]] } : {}),
    additionalProperties: false,
  },
  outputSchema: output,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  dynamic: name !== 'read_rest',
}));

export class Offer {
  readonly dynamic: boolean;
  private readonly enabled: Set<ToolsetName>;

  constructor(
    selection: Selection,
    private readonly session: Session,
  ) {
    this.dynamic = selection.dynamic;
    this.enabled = new Set(selection.toolsets);
  }

  /** What the server's flags allow of a tool, whatever toolset it is in. */
  private allowed(tool: Tool): boolean {
    return this.session.allowWrites || tool.access === 'read';
  }

  private on(tool: Tool): boolean {
    // A tool of a noun with no toolset yet is offered only when every toolset is.
    return tool.toolset ? this.enabled.has(tool.toolset) : this.enabled.size === Object.keys(TOOLSETS).length;
  }

  listed(tools: readonly Tool[]): Listed[] {
    const own = OWN.filter((t) => this.dynamic || !t.dynamic).map(({ dynamic, ...t }) => t);
    return [...tools.filter((t) => this.allowed(t) && this.on(t)).map(described), ...own];
  }

  instructions(): string[] {
    const on = [...this.enabled].join(', ');
    return this.dynamic
      ? [
          `The tools offered are those of the toolsets ${on || '(none yet)'}; list_toolsets names the others, and ` +
            `enable_toolset offers one's tools for the rest of the session.`,
        ]
      : [`The tools offered are those of the toolsets ${on}.`];
  }

  /**
   * A tool of a toolset not enabled, refused with the way to it; undefined for one that is enabled
   * (or that its flags refuse, which callTool says in its own words).
   */
  withheld(tool: Tool): ToolResult | undefined {
    if (this.on(tool) || !this.allowed(tool)) return undefined;
    const how = this.dynamic
      ? `call enable_toolset with toolset "${tool.toolset}" first`
      : `start the server with lms mcp --toolsets ${tool.toolset} (or --dynamic-toolsets)`;
    const message = `${tool.name} is in the toolset ${tool.toolset}, which this server does not offer now`;
    return { ...own({ error: { class: 'usage', message } }, [`error: ${message}: ${how}`]), isError: true };
  }

  /** A call of one of the server's own tools, or undefined for any other. */
  call(
    name: string,
    input: unknown,
    tools: readonly Tool[],
  ): Promise<{ result: ToolResult; changed: boolean }> | undefined {
    const mine = OWN.find((t) => t.name === name && (this.dynamic || !t.dynamic));
    if (!mine) return undefined;
    const given = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    // The input as its schema says, or a usage error: an unknown name, a value of the wrong type.
    const properties = (mine.inputSchema.properties ?? {}) as Record<string, { type: string }>;
    const wrong = Array.isArray(input)
      ? 'the arguments must be an object'
      : Object.entries(given)
          .filter(([, v]) => v !== undefined && v !== null)
          .map(([key, v]) =>
            !Object.hasOwn(properties, key)
              ? `unknown argument "${key}"; it takes: ${Object.keys(properties).join(', ') || 'no arguments'}`
              : (
                    properties[key].type === 'integer'
                      ? Number.isSafeInteger(v) && (v as number) >= 0
                      : typeof v === 'string'
                  )
                ? ''
                : `"${key}" must be ${properties[key].type === 'integer' ? 'a whole number from 0' : 'a string'}`,
          )
          .find(Boolean);
    if (wrong) {
      const message = `${name}: ${wrong}`;
      return Promise.resolve({
        result: { ...own({ error: { class: 'usage', message } }, [`error: ${message}`]), isError: true },
        changed: false,
      });
    }
    if (name === 'read_rest') return readRest(given, this.session).then((result) => ({ result, changed: false }));
    if (name === 'list_toolsets') {
      const items = (Object.keys(TOOLSETS) as ToolsetName[]).map((set) => ({
        name: set,
        summary: TOOLSETS[set],
        tools: tools.filter((t) => t.toolset === set && this.allowed(t)).length,
        enabled: this.enabled.has(set),
      }));
      const lines = items.map((i) => `${i.name}${i.enabled ? ' (enabled)' : ''}: ${i.summary}; ${i.tools} tools`);
      return Promise.resolve({ result: own({ items, count: items.length }, lines), changed: false });
    }
    const set = String(given.toolset ?? '');
    if (!isToolset(set)) {
      const message = `no toolset named "${set}"; the toolsets are ${Object.keys(TOOLSETS).join(', ')}`;
      return Promise.resolve({
        result: { ...own({ error: { class: 'usage', message } }, [`error: ${message}`]), isError: true },
        changed: false,
      });
    }
    const its = tools.filter((t) => t.toolset === set && this.allowed(t));
    const was = this.enabled.has(set);
    if (name === 'enable_toolset') this.enabled.add(set);
    const enabled = this.enabled.has(set);
    const value = {
      name: set,
      summary: TOOLSETS[set],
      enabled,
      tools: its.map((t) => ({ name: t.name, summary: t.spec.summary, access: t.access })),
      ...(name === 'enable_toolset' ? { added: was ? [] : its.map((t) => t.name) } : {}),
    };
    const head =
      name === 'enable_toolset'
        ? was
          ? `${set} was enabled already`
          : `${set} enabled: ${its.length} tools added (tools/list has changed)`
        : `${set}${enabled ? ' (enabled)' : ''}: ${TOOLSETS[set]}`;
    const lines = [head, ...its.map((t) => `${t.name}: ${t.spec.summary}`)];
    return Promise.resolve({ result: own(value, lines), changed: name === 'enable_toolset' && !was });
  }
}

/** A result of the server's own words (no text of the instance's: nothing to fence). */
function own(structured: Record<string, unknown>, lines: string[]): ToolResult {
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}

function described(tool: Tool): Listed {
  return {
    name: tool.name,
    title: tool.command,
    description: tool.description,
    inputSchema: tool.inputSchema as unknown as Record<string, unknown>,
    outputSchema: tool.outputSchema,
    // Each hint that differs from the protocol's default, or that a client reads first: a read is
    // the same read again; a write is the same write again only if it says it sets; destructiveHint
    // is said of the tools that change data only (the protocol reads it of no other).
    annotations:
      tool.access === 'read'
        ? { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
        : {
            readOnlyHint: false,
            destructiveHint: mayDestroy(tool),
            openWorldHint: false,
          },
  };
}

/** The selection a command line makes: --toolsets (else LMS_MCP_TOOLSETS) and --dynamic-toolsets. */
export function selectionOf(toolsets: Set<ToolsetName> | undefined, dynamic: boolean): Selection {
  if (!toolsets) return dynamic ? { toolsets: new Set(), dynamic: true } : DEFAULT_SELECTION;
  return { toolsets, dynamic };
}
