// One tool call: the input checked against the tool's schema, turned into the verb's arguments and
// options, the verb run under a context of its own (JSON output, its own streams, consent from the
// server's flags instead of a prompt), and what it returns turned into a tool result.
import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { dryRunOf, type CommandModel, type CommandResult, type Invocation } from '../model/command.js';
import { invoke } from '../model/invoke.js';
import type { ConfirmedPlan, Context, Deps, GlobalOptions } from '../model/context.js';
import { toLmsError } from '../model/handle-error.js';
import { closest } from '../closest.js';
import { ApiError, ExitCode, LmsError, UsageError } from '../errors.js';
import type { IOStreams } from '../io/streams.js';
import { newConfirmations, planDigest, redeemToken, issueToken, type Confirmations } from './confirm.js';
import type { Destruction } from '../model/destructions.js';
import { escapeData, fenced } from './fence.js';
import { differingFields, getVerbOf, readOptions } from './read-back.js';
import { givenBack, readablePreview, readableUrls, type Pseudonyms } from './pseudonyms.js';
import { DEFAULT_PAGE, type Tool } from './tools.js';

export interface Session {
  /** The server's own context, which each call's is derived from. */
  ctx: Context;
  /** The commands the tools were made of: a write's read-back finds its noun's get verb here. */
  model: CommandModel;
  allowWrites: boolean;
  allowDestructive: boolean;
  /** Signs confirmation tokens: one this process did not hand out is refused. */
  cursorKey: Buffer;
  /** The next pages' links this server handed out cursors on, by cursor; made at the first. */
  cursors?: Map<string, { next: string; listing: string }>;
  /** The confirmation tokens this process handed out and took back; made at the first call. */
  confirmations?: Confirmations;
  /** The time, in ms since the epoch, that tokens expire by: Date.now but where a test fixes it. */
  now?: () => number;
  /** Under --pseudonymize: who results name, hidden, and the pseudonyms in arguments, mapped back. */
  pseudonyms?: Pseudonyms;
  /** Where a verb's notes and -v traces also go (the server's stderr), or nowhere. */
  log?: (text: string) => void;
  /** The whole texts of fields a result cut (see cutFields), by rest handle; made at the first. */
  rests?: Map<string, string>;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export const newCursorKey = () => randomBytes(32);

/** The class of an error, by the exit code the CLI would give it. */
const CLASSES: Record<number, string> = {
  [ExitCode.failure]: 'failure',
  [ExitCode.usage]: 'usage',
  [ExitCode.auth]: 'auth',
  [ExitCode.notFound]: 'not_found',
  [ExitCode.rejected]: 'rejected',
  [ExitCode.unavailable]: 'throttled',
  [ExitCode.network]: 'network',
  [ExitCode.interrupted]: 'refused',
};

/** The most bytes of a verb's notes (its stderr) a result carries. */
const MAX_NOTES = 4096;

/**
 * A result's parts before it is cut to size: the text, as the server's own words and what came
 * from the instance (`{ data }`, fenced), and the structured content.
 */
interface Answer {
  text: (string | { data: string })[];
  structured: Record<string, unknown>;
  isError: boolean;
  /** The structured content repeated as (fenced) text: not for an error, whose text is its message. */
  echo: boolean;
  /** What was cut of the structured content, once it was (see cutToSize). */
  cuts?: Cut[];
  /** What a plan destroys, as its planner says it (never shown: what a token binds). */
  destroys?: readonly Destruction[];
}

/** Thrown by a run that reached a destruction without a token: the call answers its plan instead. */
class PlanFirst extends Error {
  constructor(readonly action: string) {
    super(action);
  }
}

/** Thrown by a confirmed run whose plan, made again, destroys other than the token's: nothing ran. */
class PlanChanged extends PlanFirst {}

export async function callTool(tool: Tool, input: unknown, session: Session): Promise<ToolResult> {
  let answer: Answer;
  try {
    // A tool the server does not allow is refused before its arguments are read.
    if (tool.access !== 'read' && !session.allowWrites)
      throw refusal(`${tool.name} changes data, and this server only reads`, '--allow-writes');
    const given = checkInput(tool, input);
    refuseUnlessAllowed(tool, given, session);
    const dryRun = given.dry_run === true;
    const now = (session.now ?? Date.now)();
    session.confirmations ??= newConfirmations();
    const memory = session.confirmations;
    // What the token confirms is spent before anything runs: whatever happens next, it ran once.
    const confirmed =
      session.allowDestructive && !dryRun && typeof given.confirm === 'string'
        ? redeemToken(given.confirm, tool.name, given, session.cursorKey, memory, now)
        : undefined;
    const destroys = session.allowDestructive && destroysAsCalled(tool, given);
    if (destroys && !dryRun && !confirmed) answer = await planned(tool, given, session, undefined);
    else {
      try {
        answer = await runCall(tool, given, session, confirmed);
        if (destroys && dryRun && !answer.isError) answer = withToken(tool, given, session, answer, undefined);
      } catch (thrown) {
        if (!(thrown instanceof PlanFirst)) throw thrown;
        answer = await planned(tool, given, session, thrown.action, thrown instanceof PlanChanged);
      }
    }
  } catch (thrown) {
    answer = failed(toLmsError(thrown), '');
    if (session.pseudonyms) answer = await hidden(answer, session.pseudonyms);
  }
  return bounded(answer, session);
}

/** A call that destroys, answered with its dry run and the token that runs it. */
async function planned(
  tool: Tool,
  given: Record<string, unknown>,
  session: Session,
  action: string | undefined,
  changed = false,
): Promise<Answer> {
  const answer = await runCall(tool, { ...given, dry_run: true }, session, undefined);
  if (changed) answer.structured.plan_changed = true;
  return answer.isError ? answer : withToken(tool, given, session, answer, action, changed);
}

function withToken(
  tool: Tool,
  given: Record<string, unknown>,
  session: Session,
  answer: Answer,
  action: string | undefined,
  changed = false,
): Answer {
  // The plan is the one the person sees: cut to size before the token is bound to it.
  const cuts = cutToSize(answer.structured, session);
  session.confirmations ??= newConfirmations();
  const memory = session.confirmations;
  const now = (session.now ?? Date.now)();
  const { structured, destroys } = answer;
  const { token, expiresAt } = issueToken(tool.name, given, structured, destroys, session.cursorKey, memory, now);
  answer.structured.confirm = token;
  answer.structured.confirm_expires_at = expiresAt;
  const why = action === undefined ? 'This call destroys data' : `This call destroys data ("${action}")`;
  const asked = changed
    ? `${tool.name}: nothing was sent. The plan changed since the token was handed out (it would destroy other than ` +
      'what the person agreed to): below is the new plan (a dry run), and a new token; the old one is spent.'
    : given.dry_run === true
      ? `${tool.name}: the plan (a dry run; nothing was sent).`
      : `${tool.name}: nothing was sent. ${why}: below is its plan (a dry run).`;
  const told =
    `Show this plan to the person. Only if they agree, call ${tool.name} again with the same ` +
    `arguments${given.dry_run === true ? ', without dry_run,' : ''} and confirm = "${token}" (in ` +
    `structuredContent.confirm): it runs once, until ${expiresAt}.`;
  return { ...answer, text: [asked, ...answer.text.slice(1), told], cuts };
}

/**
 * Whether the call, as given, destroys: the tool does, or a flag or value given does (what refuseUnlessAllowed refuses
 * without --allow-destructive).
 */
function destroysAsCalled(tool: Tool, given: Record<string, unknown>): boolean {
  return tool.access === 'destructive' || destroyingFlag(tool, given) !== undefined;
}

const destroyingFlag = (tool: Tool, given: Record<string, unknown>) =>
  tool.destroying.find(({ property, values }) =>
    values ? values.includes(String(given[property])) : given[property] === true,
  );

/** The error as a result: the server's words, and the instance's (an API error's message) fenced. */
function failed(error: LmsError, notes: string): Answer {
  const text: Answer['text'] = fromInstance(error)
    ? ['error: the instance answered:', { data: error.message }]
    : [`error: ${error.message}`];
  if (error.hint) text.push(`hint: ${error.hint}`);
  return { text: withNotes(text, notes), structured: { error: errorData(error) }, isError: true, echo: false };
}

/** Whether the error's message is the instance's answer (an API error, or one that wraps it). */
function fromInstance(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (e instanceof ApiError) return true;
  return false;
}

/** The call run, and under --pseudonymize what its answer says of people hidden (before a token is added to it). */
async function runCall(
  tool: Tool,
  given: Record<string, unknown>,
  session: Session,
  confirmed: ConfirmedPlan | undefined,
): Promise<Answer> {
  const answer = await runPlain(tool, given, session, confirmed);
  return session.pseudonyms ? hidden(answer, session.pseudonyms, given) : answer;
}

async function hidden(answer: Answer, p: Pseudonyms, given: Record<string, unknown> = {}): Promise<Answer> {
  try {
    await p.ready();
  } catch (error) {
    // No instance (no profile, a keychain that fails): the call failed before it read anyone, and
    // its error is the answer. Anything else is not let through unhidden.
    if (answer.isError) return answer;
    throw error;
  }
  // The structured content first: what it names is learned there, for the free text after. The
  // course the call names is one its result concerns, whether or not the result says so.
  const course = typeof given.course === 'string' || typeof given.course === 'number' ? [String(given.course)] : [];
  // A dry run's preview is read decoded: encoded, the net would not know a name in it.
  const structured = await p.transform(readablePreview(answer.structured), { courses: course });
  const text = answer.text.map((t) => (typeof t === 'string' ? p.text(t) : { data: p.text(readableUrls(t.data)) }));
  return { ...answer, structured, text };
}

async function runPlain(
  tool: Tool,
  given: Record<string, unknown>,
  session: Session,
  confirmed: ConfirmedPlan | undefined,
): Promise<Answer> {
  let notes = '';
  try {
    const dryRun = given.dry_run === true;
    const { args, options, inputs } = commandLine(
      tool,
      session.pseudonyms ? givenBack(await session.pseudonyms.ready(), tool, given) : given,
      session.allowWrites,
    );

    let next: string | undefined;
    let listed = 0;
    const limit = tool.paged ? ((given.limit as number | undefined) ?? DEFAULT_PAGE) : undefined;
    const pageCursor = tool.paged
      ? {
          resumeAt: given.cursor === undefined ? undefined : openCursor(String(given.cursor), tool, given, session),
          reached(link: string | undefined) {
            listed++;
            next = link;
          },
        }
      : undefined;
    const stderr = collector((text) => {
      if (notes.length < MAX_NOTES) notes += text;
      session.log?.(text);
    });
    const io: IOStreams = {
      stdout: collector(() => undefined),
      stderr,
      stdin: emptyStdin(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      color: false,
    };
    const deps: Partial<Deps> = {
      io,
      localFiles: false,
      inputs,
      audit: {
        surface: `mcp:${tool.name}`,
        verb: tool.command,
        ...(confirmed ? { confirmed: { plan_digest: confirmed.planDigest, issued_at: confirmed.issuedAt } } : {}),
      },
      pageCursor,
      confirmed,
      consent: async (action, destructive, changes) => {
        if (!destructive) return;
        if (!session.allowDestructive) throw refusal(`${tool.name}: "${action}" destroys data`, '--allow-destructive');
        // Found only as it runs (a roster's rows that deactivate): the plan first, then its token.
        if (!confirmed && !dryRun) throw new PlanFirst(action);
        // The run's own plan, made just now: what the person agreed to, or nothing runs.
        const agreed = !changes || planDigest({ changes }, session.cursorKey) === confirmed?.planDigest;
        if (confirmed && !agreed) throw new PlanChanged(action);
      },
    };
    const globals: GlobalOptions = {
      ...session.ctx.globals,
      output: 'json',
      fields: undefined,
      all: false,
      limit,
      perPage: limit ?? session.ctx.globals.perPage,
      yes: false,
      input: false,
    };
    const ctx = await session.ctx.derive(deps, globals);
    const how = dryRunOf(tool.spec);
    const result = await invoke(tool.spec, { args, options }, ctx, { dryRun: dryRun && how ? how : undefined });
    const shaped = await shape(result, limit);
    if (tool.paged && listed === 1 && next !== undefined)
      shaped.value.next_cursor = sealCursor(next, tool, given, session);
    if (result?.kind === 'list')
      shaped.value.more = shaped.value.next_cursor !== undefined || shaped.value.truncated === true;
    const failure = result?.failure;
    const summary: Answer['text'] = !failure
      ? [shaped.summary(tool.name)]
      : fromInstance(failure)
        ? [`${tool.name} finished with failures:`, { data: failure.message }]
        : [`${tool.name} finished with failures: ${failure.message}`];
    let structured = failure ? { ...shaped.value, error: errorData(failure) } : shaped.value;
    // What the instance holds after a create or change, rather than what it answered the write with.
    if (
      !failure &&
      !dryRun &&
      result?.kind === 'item' &&
      (tool.spec.writes === 'create' || tool.spec.writes === 'update') &&
      isId(structured.id)
    ) {
      const back = await readBack(
        tool,
        options,
        structured,
        String(structured.id),
        { ...deps, inputs: undefined, pageCursor: undefined, confirmed: undefined },
        globals,
        session,
      );
      structured = back.structured;
      summary.push(back.line);
    }
    const destroys = result?.kind === 'item' ? result.destroys : undefined;
    const text = withNotes(summary, notes);
    return { text, structured, isError: failure !== undefined, echo: true, ...(destroys ? { destroys } : {}) };
  } catch (thrown) {
    if (thrown instanceof PlanFirst) throw thrown;
    return failed(toLmsError(thrown), notes);
  }
}

const isId = (id: unknown) =>
  (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id !== '');

/**
 * The written object read back through its noun's get verb, with the write's context options: the
 * object as read, the write's answer as `written`, and the fields sent that came back otherwise.
 * Without a get verb, or when the read fails, the write's answer stands, and says it was not read back.
 */
async function readBack(
  tool: Tool,
  options: Record<string, unknown>,
  written: Record<string, unknown>,
  id: string,
  deps: Partial<Deps>,
  globals: GlobalOptions,
  session: Session,
): Promise<{ structured: Record<string, unknown>; line: string }> {
  // Why it failed may quote the instance: it is said in the structured content, which comes fenced.
  const unread = (why: string) => ({
    structured: { ...written, read_back: { read: false, why } },
    line: `${tool.name}: not read back (read_back.why says why); this is the write's answer`,
  });
  const get = await getVerbOf(session.model, tool);
  if (!get) return unread(`${tool.command.split(' ').slice(0, -1).join(' ')} has no get verb`);
  const command = `${tool.command.split(' ').slice(0, -1).join(' ')} get`;
  try {
    const ctx = await session.ctx.derive({ ...deps, audit: { surface: `mcp:${tool.name}`, verb: command } }, globals);
    const result = await invoke(get, { args: [id], options: readOptions(get, options) }, ctx);
    const object = result?.kind === 'item' ? plain(result.value) : undefined;
    if (typeof object !== 'object' || object === null || Array.isArray(object))
      return unread(`${command} ${id} answered no object`);
    const read = object as Record<string, unknown>;
    const differs = differingFields(tool.spec, options, read);
    const line = differs.length
      ? `read back with ${command} ${id}: what the instance holds differs from what was sent in ${differs.join(', ')}`
      : `read back with ${command} ${id}: the instance holds what was sent`;
    return { structured: { ...read, written, read_back: { read: true, differs } }, line };
  } catch (thrown) {
    return unread(`${command} ${id} failed: ${toLmsError(thrown).message.slice(0, 200)}`);
  }
}

/**
 * The most characters of JSON a result's structured content carries; its copy as text is as long
 * again, and the summary at most MAX_SUMMARY_CHARS, so a whole result stays near 1 MiB. A client
 * reads a result whole, as one message: the official SDK's drops a connection that sends it tens of
 * megabytes.
 */
export const MAX_STRUCTURED_CHARS = 480 * 1024;
const MAX_SUMMARY_CHARS = 64 * 1024;

/**
 * The most characters of one text field a result carries (a post's HTML, a page's body): a longer
 * one is cut there, and its whole text kept in the server for read_rest. A context window pays for
 * every character of a result, and most of a long body is seldom what was asked.
 */
export const MAX_FIELD_CHARS = 8000;

/** The most whole texts a server keeps for read_rest: the oldest go first. */
const MAX_RESTS = 1000;

/** Cuts the structured content to MAX_STRUCTURED_CHARS in place (see bounded); what was cut. */
function cutToSize(structured: Record<string, unknown>, session: Session): Cut[] {
  // Room is kept for the list of what was cut, and the confirmation token.
  const cuts = [...cutFields(structured, session), ...fit(structured, MAX_STRUCTURED_CHARS - 16 * 1024)].slice(0, 50);
  if (cuts.length) structured.left_out = cuts;
  return cuts;
}

/** Every text field longer than MAX_FIELD_CHARS cut there, in place, its whole text kept under a rest handle. */
function cutFields(structured: Record<string, unknown>, session: Session): Cut[] {
  const cuts: Cut[] = [];
  const visit = (holder: Record<string, unknown> | unknown[], at: string) => {
    for (const [key, v] of Object.entries(holder)) {
      const where = Array.isArray(holder) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
      if (typeof v === 'string' && v.length > MAX_FIELD_CHARS && cuts.length < 50) {
        session.rests ??= new Map();
        const rests = session.rests;
        if (rests.size >= MAX_RESTS) rests.delete(rests.keys().next().value!);
        const rest = randomBytes(12).toString('base64url');
        rests.set(rest, v);
        (holder as Record<string, unknown>)[key] = `${v.slice(0, MAX_FIELD_CHARS)}…`;
        cuts.push({ at: where, characters: v.length - MAX_FIELD_CHARS, rest, offset: MAX_FIELD_CHARS });
      } else if (v !== null && typeof v === 'object') visit(v as Record<string, unknown>, where);
    }
  };
  visit(structured, '');
  return cuts;
}

/** read_rest: the next MAX_FIELD_CHARS characters of a text a result cut, fenced as the instance's. */
export async function readRest(given: Record<string, unknown>, session: Session): Promise<ToolResult> {
  const whole = typeof given.rest === 'string' ? session.rests?.get(given.rest) : undefined;
  const offset =
    typeof given.offset === 'number' && Number.isSafeInteger(given.offset) ? given.offset : MAX_FIELD_CHARS;
  if (whole === undefined || offset < 0)
    return bounded(
      failed(
        new UsageError('read_rest: the rest handle is not one this server handed out', {
          hint: 'call the tool again: its answer names the field in left_out with a new handle',
        }),
        '',
      ),
      session,
    );
  const text = whole.slice(offset, offset + MAX_FIELD_CHARS);
  const left = Math.max(0, whole.length - offset - text.length);
  const head =
    `read_rest: characters ${offset.toLocaleString('en-US')} to ` +
    `${(offset + text.length).toLocaleString('en-US')} of ${whole.length.toLocaleString('en-US')}` +
    `${left ? `; ${left.toLocaleString('en-US')} left: call again with offset ${offset + text.length}` : ''}`;
  const structured = { text, offset, left };
  const content = [{ type: 'text' as const, text: `${head}\n${fenced(text)}` }];
  return { content, structuredContent: structured };
}

/**
 * A result within MAX_STRUCTURED_CHARS and MAX_SUMMARY_CHARS: the largest lists lose their last
 * items and the longest texts their ends until it fits, and the result says what was left out
 * (`left_out`, and a note after the summary) and how to get the rest. What came from the instance
 * is cut first and fenced after, so the fence always closes, and the note stands outside it.
 */
function bounded(answer: Answer, session: Session): ToolResult {
  const { structured, isError, echo } = answer;
  const cuts = answer.cuts ?? cutToSize(structured, session);
  let room = MAX_SUMMARY_CHARS;
  const parts = answer.text.map((part) => {
    const text = typeof part === 'string' ? part : part.data;
    const kept =
      text.length > room
        ? `${text.slice(0, room)}… (${(text.length - room).toLocaleString('en-US')} characters left out)`
        : text;
    room = Math.max(0, room - text.length);
    return typeof part === 'string' ? kept : fenced(kept);
  });
  let text = parts.join('\n');
  const fields = cuts.filter((c) => 'rest' in c);
  const sized = cuts.filter((c) => !('rest' in c));
  if (fields.length) {
    const what = fields.map(
      (c) => `${c.at} (${c.characters.toLocaleString('en-US')} characters more, rest "${c.rest}")`,
    );
    text +=
      `\n\n(long text cut at ${MAX_FIELD_CHARS.toLocaleString('en-US')} characters: ${what.join(', ')}; read ` +
      'on with read_rest and the rest handle)';
  }
  if (sized.length) {
    const what = sized.map((c) =>
      'items' in c
        ? `${c.items.toLocaleString('en-US')} item${c.items === 1 ? '' : 's'} of ${c.at}`
        : `${c.characters.toLocaleString('en-US')} characters of ${c.at}`,
    );
    text +=
      `\n\n(this result was cut to ${MAX_STRUCTURED_CHARS / 1024} KiB: left out ${what.join(', ')}; for the ` +
      'rest, call again for less: a smaller limit and the next page, or a narrower call)';
  }
  // An error's summary is its message; its structured content is not repeated as text.
  const content = echo
    ? [
        { type: 'text' as const, text },
        { type: 'text' as const, text: fenced(JSON.stringify(structured)) },
      ]
    : [{ type: 'text' as const, text }];
  return { content, structuredContent: structured, ...(isError ? { isError: true } : {}) };
}

type Cut =
  | { at: string; items: number }
  | { at: string; characters: number }
  /** A field cut at MAX_FIELD_CHARS: read_rest with `rest` (and `offset`) reads on. */
  | { at: string; characters: number; rest: string; offset: number };

/** Cuts `value` in place until its JSON fits `budget`, largest part first; what it cut, by place. */
function fit(value: Record<string, unknown>, budget: number): Cut[] {
  const cuts = new Map<string, Cut>();
  // Measured as its fenced copy is: an escaped tag is longer.
  while (escapeData(JSON.stringify(value)).length > budget) {
    const largest = largestPart(value);
    if (!largest) break;
    const { holder, key, at } = largest;
    const part = (holder as Record<string, unknown>)[key] as unknown[] | string;
    const kept = Math.floor(part.length / 2);
    const cut = cuts.get(at) ?? (Array.isArray(part) ? { at, items: 0 } : { at, characters: 0 });
    if (Array.isArray(part)) {
      (cut as { items: number }).items += part.length - kept;
      part.length = kept;
    } else {
      (cut as { characters: number }).characters += part.length - kept;
      (holder as Record<string, unknown>)[key] = `${part.slice(0, kept)}…`;
    }
    cuts.set(at, cut);
  }
  return [...cuts.values()];
}

interface Part {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  at: string;
  size: number;
}

/** The list or text whose JSON is longest (a list with items, a text of more than 256 characters), and where it is. */
function largestPart(root: Record<string, unknown>): Part | undefined {
  let best: Part | undefined;
  const visit = (holder: Record<string, unknown> | unknown[], key: string | number, at: string): number => {
    const v = (holder as Record<string, unknown>)[key];
    let size: number;
    if (typeof v === 'string') {
      size = JSON.stringify(v).length;
      if (v.length > 256 && (!best || size > best.size)) best = { holder, key, at, size };
    } else if (Array.isArray(v)) {
      size = 2;
      for (let i = 0; i < v.length; i++) size += visit(v, i, `${at}[${i}]`) + 1;
      if (v.length && (!best || size > best.size)) best = { holder, key, at, size };
    } else if (v !== null && typeof v === 'object') {
      size = 2;
      for (const k of Object.keys(v))
        size += visit(v as Record<string, unknown>, k, at ? `${at}.${k}` : k) + k.length + 4;
    } else size = JSON.stringify(v)?.length ?? 4;
    return size;
  };
  visit({ root }, 'root', '');
  return best;
}

/** The input as the schema allows it: known properties of the right types, the required present. */
function checkInput(tool: Tool, input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) input = {};
  if (typeof input !== 'object' || Array.isArray(input))
    throw new UsageError(`${tool.name}: the arguments must be an object`);
  const given = new Map(
    Object.entries(input as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null),
  );
  const properties = tool.inputSchema.properties;
  const known = Object.keys(properties);
  const checked: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // A number option's value is checked as the verb receives it (by invoke), in the words every
  // surface uses for it; so is a choice (the schema's enum, for a client that checks before it calls).
  const numbers = new Set(
    tool.params.flatMap((p) =>
      p.to === 'option' && (p.option.type === 'integer' || p.option.type === 'number') ? [p.property] : [],
    ),
  );
  for (const [name, value] of given) {
    if (!Object.hasOwn(properties, name)) {
      const near = closest(name, known);
      throw new UsageError(`${tool.name}: unknown argument "${name}"`, {
        hint: near
          ? `did you mean ${near}? It takes: ${known.join(', ') || 'no arguments'}`
          : `it takes: ${known.join(', ') || 'no arguments'}`,
      });
    }
    checked[name] = numbers.has(name) ? value : typed(tool.name, name, properties[name], value);
  }
  for (const name of tool.inputSchema.required ?? []) {
    if (checked[name] === undefined) throw new UsageError(`${tool.name}: "${name}" is required`);
  }
  return checked;
}

function typed(tool: string, name: string, schema: Record<string, unknown>, value: unknown): unknown {
  // Only what a command line could not say wrongly: a switch that is not true or false, text that
  // is no text. A value the command line could give (a choice not among the verb's, a number out of
  // range) is the verb's to refuse, as invoke does for every surface.
  const wrong = (what: string) =>
    new UsageError(`${tool}: "${name}" must be ${what}, not ${JSON.stringify(value)?.slice(0, 80)}`);
  // Ids are text to the CLI, and a model may well send 42 for "42".
  const text = (v: unknown) =>
    typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
  switch (schema.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong('true or false');
      return value;
    case 'integer': {
      const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
      if (
        typeof n !== 'number' ||
        !Number.isSafeInteger(n) ||
        n < ((schema.minimum as number) ?? -Infinity) ||
        n > ((schema.maximum as number) ?? Infinity)
      ) {
        throw wrong(`a whole number from ${String(schema.minimum)} to ${String(schema.maximum)}`);
      }
      return n;
    }
    case 'array': {
      const items = Array.isArray(value) ? value : [value];
      return items.map((item) => {
        const v = text(item);
        if (v === undefined) throw wrong('a list of strings');
        return v;
      });
    }
    default: {
      const v = text(value);
      if (v === undefined) throw wrong('a string');
      return v;
    }
  }
}

/** Refused before anything runs: a change on a read-only server, a destruction without consent. */
function refuseUnlessAllowed(tool: Tool, given: Record<string, unknown>, session: Session): void {
  if (tool.access === 'read') return;
  // A dry run destroys nothing: it shows what would be sent.
  if (given.dry_run === true || session.allowDestructive) return;
  if (tool.access === 'destructive') throw refusal(`${tool.name} destroys data`, '--allow-destructive');
  const flag = destroyingFlag(tool, given);
  if (flag)
    throw refusal(
      `${tool.name} with ${flag.property}${flag.values ? ` ${String(given[flag.property])}` : ''} destroys data`,
      '--allow-destructive',
    );
}

function refusal(message: string, flag: string): LmsError {
  const hint =
    flag === '--allow-destructive'
      ? 'start the server with lms mcp --allow-destructive to allow it, or pass dry_run to see what it would send'
      : `start the server with lms mcp ${flag} to allow it`;
  return new LmsError(`${message}: refused`, ExitCode.usage, { hint, details: { refused: true, needs: flag } });
}

/**
 * The verb's arguments and options, as commander would hand them over, and the text of the files it
 * reads: a `…_text` input is handed over as it is, under the name of the input it fills (`csv`),
 * which stands in the file's place and names it in messages (`csv:3: …`). Nothing is written.
 */
function commandLine(
  tool: Tool,
  given: Record<string, unknown>,
  writes: boolean,
): Invocation & { inputs: Map<string, string> } {
  const args: unknown[] = [];
  const opts: Record<string, unknown> = {};
  const inputs = new Map<string, string>();
  for (const p of tool.params) {
    if (p.to === 'text' && given[p.property] !== undefined) inputs.set(p.of, String(given[p.property]));
  }
  for (const p of tool.params) {
    if (p.to === 'text') continue;
    const value = given[p.property];
    const file = inputs.has(p.property) ? p.property : undefined;
    if (p.to === 'arg') {
      if (file !== undefined) args[p.index] = file;
      else if (value !== undefined) args[p.index] = value;
      else if (p.variadic) args[p.index] = [];
      continue;
    }
    const { kind, attribute: key, default: byDefault } = p.option;
    if (kind === 'list') {
      const list = [...((value as string[] | undefined) ?? []), ...(file !== undefined ? [file] : [])];
      if (list.length) opts[key] = list;
    } else if (kind === 'switch') {
      if (value === true) opts[key] = true;
    } else if (file !== undefined) opts[key] = file;
    else if (value !== undefined) opts[key] = value;
    else if (byDefault !== undefined) opts[key] = byDefault;
  }
  // A read that would change something on the side (conv get marks read) does not, on a server that only reads.
  for (const p of tool.params) {
    const unless = p.to === 'option' ? p.option.spec.writesUnless : undefined;
    if (!writes && p.to === 'option' && unless !== undefined) opts[p.option.attribute] = unless;
  }
  // commander leaves out an optional argument not given; a variadic one is an empty list.
  while (args.length && args.at(-1) === undefined) args.pop();
  // A variadic argument is a list in its place, as commander hands it over.
  return { args: args as string[], options: opts, inputs };
}

interface Shaped {
  value: Record<string, unknown>;
  summary(tool: string): string;
}

async function shape(result: CommandResult, limit: number | undefined): Promise<Shaped> {
  if (!result || result.kind === 'none') return { value: { ok: true }, summary: (tool) => `${tool}: done` };
  // The text is the instance's (a course file, an outcome tree): it comes fenced, as `text` of the data.
  if (result.kind === 'text')
    return { value: { text: result.text }, summary: (tool) => `${tool}: text, as "text" below` };
  if (result.kind === 'item') {
    const value = plain(result.value);
    const object = typeof value === 'object' && value !== null && !Array.isArray(value);
    return { value: object ? (value as Record<string, unknown>) : { value }, summary: (tool) => `${tool}: one record` };
  }
  const items: unknown[] = [];
  let truncated = false;
  for await (const item of result.items) {
    // A list not read a page at a time (filtered as it is read) is cut at the page size, uncursored.
    if (limit !== undefined && items.length >= limit) {
      truncated = true;
      break;
    }
    items.push(plain(item));
  }
  const value: Record<string, unknown> = { items, count: items.length, ...(truncated ? { truncated: true } : {}) };
  return {
    value,
    summary: (tool) =>
      `${tool}: ${items.length} item${items.length === 1 ? '' : 's'}` +
      `${value.next_cursor ? '; more: call again with cursor = next_cursor' : ''}`,
  };
}

/** As JSON would carry it: no undefined, no Date objects, no class instances. */
const plain = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

function errorData(error: LmsError): Record<string, unknown> {
  return { class: CLASSES[error.exitCode] ?? 'failure', ...error.toJSON() };
}

/** What the verb said on stderr, after the rest: fenced, as it may quote the instance. */
function withNotes(text: Answer['text'], notes: string): Answer['text'] {
  const trimmed = notes.trim();
  return trimmed
    ? [...text, '', { data: trimmed.length >= MAX_NOTES ? `${trimmed.slice(0, MAX_NOTES)}…` : trimmed }]
    : text;
}

// ---- cursors ---------------------------------------------------------------------------------

/**
 * A cursor is a random handle on the next page's link, which stays in this server (`cursors`), bound
 * to the tool and the arguments it listed with. The link is the instance's, and says what the list
 * is sorted by and where the page starts (a bookmark of the last sortable name, the search term the
 * server looked for): a cursor that carried it would hand a student's name to the assistant under
 * --pseudonymize. A handle this server did not hand out, or one used with another list, is refused,
 * so a cursor can never send the token to an address the instance did not give.
 */
function sealCursor(next: string, tool: Tool, given: Record<string, unknown>, session: Session): string {
  session.cursors ??= new Map();
  const cursors = session.cursors;
  const handle = randomBytes(18).toString('base64url');
  // The oldest go first: a list paged a long way, or a session that lists much, keeps the latest.
  if (cursors.size >= MAX_CURSORS) cursors.delete(cursors.keys().next().value!);
  cursors.set(handle, { next, listing: listing(tool, given) });
  return handle;
}

function openCursor(cursor: string, tool: Tool, given: Record<string, unknown>, session: Session): string {
  const held = session.cursors?.get(cursor);
  if (!held || held.listing !== listing(tool, given)) {
    throw new UsageError(`${tool.name}: the cursor is not one this server handed out for this list`, {
      hint:
        'list again without a cursor (a server keeps its latest 10,000 cursors, each for the arguments it was ' +
        'listed with)',
    });
  }
  return held.next;
}

/** The most cursors a server holds: a handful of links each, against a session that pages for hours. */
const MAX_CURSORS = 10_000;

/** The tool and its arguments but the page's own (limit, cursor), in one order. */
function listing(tool: Tool, given: Record<string, unknown>): string {
  const args = Object.keys(given)
    .filter((k) => k !== 'cursor' && k !== 'limit')
    .sort()
    .map((k) => [k, given[k]]);
  return JSON.stringify([tool.name, args]);
}

// ---- streams ---------------------------------------------------------------------------------

function collector(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(chunk.toString());
      done();
    },
  });
}

/** A verb that reads stdin (`-`) reads nothing: a tool's input is its arguments. */
function emptyStdin(): PassThrough {
  const stream = new PassThrough();
  stream.end();
  return stream;
}
