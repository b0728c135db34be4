// The tools `lms mcp` offers, read off the command model: one tool a verb, named by its path
// (`users list` → users_list), its input schema built from the verb's arguments and flags, its
// description from the verb's help. Nothing here lists a verb by hand but the nouns that are about
// this machine rather than the instance (profiles, the mock, raw requests, the setup).
import {
  argumentsOf,
  destroysAlways,
  isNoun,
  sendsWrites,
  wordOf,
  type CommandModel,
  type CommandSpec,
  type Verbs,
} from '../model/command.js';
import { compileOption, type CompiledOption } from '../model/options.js';
import { route } from '../spec/routes.js';
import { DATA_NOTE, holdsPeoplesText } from './fence.js';
import { outputSchemaOf, type ObjectSchema } from './output-schema.js';
import { toolsetOf, type ToolsetName } from './toolsets.js';

/**
 * Nouns that act on this machine, not on the instance, or that hand out secrets or this machine's
 * files: an assistant gets none of them (`auth token` prints the token; `api` sends any request,
 * whatever the server allows; `log` reads the audit log).
 */
const LOCAL_NOUNS = new Set(['profile', 'mock', 'api', 'doctor', 'completion', 'mcp', 'auth', 'version', 'log']);

/**
 * Flags the tools leave out: the dry run and plan are the tool's own `dry_run`; `--watch` makes a
 * list that never ends, which no tool result can be.
 */
const LEFT_OUT = new Set(['dryRun', 'plan', 'watch', 'interval']);

/** The most items a tool's page holds, as the API's own page. */
const MAX_PAGE = 100;
export const DEFAULT_PAGE = 25;

type Access = 'read' | 'write' | 'destructive';

/** How one property of a tool's input becomes part of the verb's command line. */
type Param =
  | { property: string; to: 'arg'; index: number; variadic: boolean }
  | { property: string; to: 'option'; option: CompiledOption }
  /** The content of a file the verb reads, which the verb's argument or option `of` names as a written copy. */
  | { property: string; to: 'text'; of: string };

interface JsonSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

export interface Tool {
  name: string;
  /** The command line it stands for, without arguments: `lms users list`. */
  command: string;
  description: string;
  inputSchema: JsonSchema;
  /** The shape of its structuredContent, from the result type of the route it answers with. */
  outputSchema: ObjectSchema;
  /** The group it is offered in (see toolsets.ts); undefined for a noun with no row there yet. */
  toolset: ToolsetName | undefined;
  access: Access;
  /** Lists page by page: takes `limit` and `cursor`. */
  paged: boolean;
  params: Param[];
  /**
   * Flags that make the verb destroy (`--prune`; `--state` inactive), by property, with the values that do (all, for a
   * switch).
   */
  destroying: { property: string; values?: readonly string[] }[];
  spec: CommandSpec<never>;
}

/**
 * Whether a call may destroy: a verb that always does, one given a flag that does, or one that asks
 * itself when what it is given says so (a SIS file's deleted rows).
 */
export const mayDestroy = (t: Pick<Tool, 'access' | 'destroying' | 'spec'>): boolean =>
  t.access === 'destructive' || t.destroying.length > 0 || t.spec.destroys === 'asks';

/** Every tool of the model, in help order; the nouns about this machine are not even loaded. */
export async function toolsOf(model: CommandModel): Promise<Tool[]> {
  const tools: Tool[] = [];
  const walk = (verbs: Verbs, path: string[]) => {
    for (const spec of verbs) {
      const name = [...path, wordOf(spec)];
      if (isNoun(spec)) walk(spec.commands, name);
      // A verb whose argument is a local file it sends (users upload) has no tool: nothing of this
      // machine's goes out at an assistant's word.
      else if (!Object.values(spec.fileArgs ?? {}).includes('uploaded')) tools.push(toolOf(spec, name));
    }
  };
  const nouns = model.nouns.filter((noun) => !LOCAL_NOUNS.has(noun.name));
  const loaded = await Promise.all(nouns.map((noun) => noun.load()));
  nouns.forEach((noun, i) => {
    walk(loaded[i], [noun.name]);
  });
  walk(
    model.topLevel.filter((spec) => !LOCAL_NOUNS.has(wordOf(spec))),
    [],
  );
  return tools;
}

function toolOf(spec: CommandSpec<never>, path: string[]): Tool {
  const name = path.join('_').replace(/-/g, '_');
  const access = accessOf(spec);
  const properties: JsonSchema['properties'] = {};
  const required: string[] = [];
  const params: Param[] = [];
  const destroying: Tool['destroying'] = [];
  const add = (property: string, schema: Record<string, unknown>) => {
    if (property in properties) throw new Error(`tool ${name}: two inputs named ${property}`);
    properties[property] = schema;
  };

  // A file the verb reads comes as its content (`csv_text`), never as a path: a tool that read any
  // file it was named would hand this machine's files to whoever can steer the assistant (through
  // a discussion post it reads, say), in the error that quotes a line of one. For the same reason a
  // file the verb would upload is left out, and the call's context reads no file its input names.
  const text = (property: string, description: string, isRequired: boolean) => {
    add(`${property}_text`, { type: 'string', description: `the content of the file (${description})` });
    params.push({ property: `${property}_text`, to: 'text', of: property });
    if (isRequired) required.push(`${property}_text`);
  };

  const fileArgs = spec.fileArgs ?? {};
  for (const [index, { name: argName, required: isRequired, variadic }] of argumentsOf(spec).entries()) {
    const property = snake(argName);
    params.push({ property, to: 'arg', index, variadic });
    if (fileArgs[argName] === 'read') {
      text(property, argName, isRequired);
      continue;
    }
    const choices = spec.argChoices?.[argName];
    add(
      property,
      variadic
        ? { type: 'array', items: { type: 'string' } }
        : { type: 'string', ...(choices ? { enum: [...choices] } : {}) },
    );
    if (isRequired) required.push(property);
  }

  for (const option of spec.options ?? []) {
    const compiled = compileOption(option);
    const { kind, type } = compiled;
    if (LEFT_OUT.has(compiled.attribute) || option.file === 'written' || option.file === 'uploaded') continue;
    const property = snake(compiled.attribute);
    params.push({ property, to: 'option', option: compiled });
    if (option.file === 'read') {
      text(property, option.description, option.required === true);
      continue;
    }
    const schema: Record<string, unknown> = { description: option.description };
    if (kind === 'list') schema.type = 'array';
    else schema.type = type === 'enum' ? 'string' : type;
    if (compiled.min !== undefined) schema.minimum = compiled.min;
    if (compiled.max !== undefined) schema.maximum = compiled.max;
    if (option.choices) {
      if (kind === 'list') schema.items = { type: 'string', enum: [...option.choices] };
      else schema.enum = [...option.choices];
    } else if (kind === 'list') schema.items = { type: 'string' };
    if (compiled.default !== undefined) schema.default = compiled.default;
    if (option.writesUnless !== undefined)
      schema.description = `${option.description} (a server that only reads always does)`;
    // diff takes --prune to show what apply --prune would destroy: only a verb that writes destroys.
    if (option.destroys && access !== 'read') {
      const which = option.destroys === true ? 'Destroys data' : `${option.destroys.join(' or ')} destroys data`;
      schema.description = `${option.description}. ${which}`;
      destroying.push({ property, values: option.destroys === true ? undefined : option.destroys });
    }
    add(property, schema);
    if (option.required) required.push(property);
  }

  const paged =
    (spec.routes ?? []).some((id) => route(id).paginated && route(id).method === 'GET') && access === 'read';
  if (paged) {
    // What limit, cursor, dry_run and confirm do is said once, in the server's instructions.
    add('limit', { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE });
    add('cursor', { type: 'string' });
  }
  if (access !== 'read') add('dry_run', { type: 'boolean' });
  // Any write may find, as it runs, that it destroys (a roster's rows that deactivate): each can be confirmed.
  if (access !== 'read') add('confirm', { type: 'string' });

  const command = `lms ${path.join(' ')}`;
  // The verb's summary, as the CLI's help says it; what writing and destroying need is in the
  // annotations and said once in the server's instructions, as is the fence.
  const description = [
    spec.summary,
    (spec.routes ?? []).some((id) => holdsPeoplesText(route(id).path)) ? DATA_NOTE : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    name,
    command,
    description,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    outputSchema: outputSchemaOf(spec, path, paged),
    toolset: toolsetOf(path[0]),
    access,
    paged,
    params,
    destroying,
    spec,
  };
}

/**
 * What a verb may do, as the command line reads it (destroysAlways): a verb that destroys only with
 * a flag (`--sync`, `--prune`) changes, and destroys when the flag is given; one that destroys on an
 * answer (`conv batch --event destroy`) asks for confirmation then.
 */
function accessOf(spec: CommandSpec<never>): Access {
  if (!sendsWrites(spec)) return 'read';
  return destroysAlways(spec) ? 'destructive' : 'write';
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, '_');
