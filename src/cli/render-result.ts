// How what a command returns reaches the user: the format it is written in, and the notes a person
// at a terminal gets about an empty or shortened list. The output layer writes a format; this
// decides which, from the result and the global flags.
import { UsageError } from '../errors.js';
import { err, out, showingControls, type IOStreams } from '../io/streams.js';
import type { Format, JqFilter } from '../output/formats.js';
import type { CommandResult } from '../model/command.js';
import type { GlobalOptions } from '../model/context.js';

export interface RenderSettings {
  io: IOStreams;
  globals: GlobalOptions;
  /** -o was on the command line (globals.output may also come from --jq or LMS_OUTPUT). */
  outputFlagGiven: boolean;
  jq?: JqFilter;
  /** The verb's declared columns, for a result that names none of its own. */
  columns?: string[];
  /** Items on one page of a list, undefined with --all. */
  pageLimit: number | undefined;
}

type Shown = Exclude<NonNullable<CommandResult>, { kind: 'none' }>;
type ListResult = Extract<Shown, { kind: 'list' }>;

export async function renderResult(result: NonNullable<CommandResult>, settings: RenderSettings): Promise<void> {
  if (result.kind === 'none') return;
  if (result.kind === 'text') return renderTextResult(result.text, settings);
  const { renderItem, renderList, defaultFormat } = await import('../output/render.js');
  const { io, globals, jq } = settings;
  const chosen = globals.output ?? defaultFormat(io);
  const format = result.kind === 'list' ? listFormat(result, chosen, settings) : chosen;
  const options = {
    io,
    format,
    fields: globals.fields,
    columns: result.columns ?? settings.columns,
    jq,
    raw: globals.raw,
  };
  if (result.kind === 'item') return renderItem(result.value, options);
  const count = await renderList(result.items, options);
  listNotes(result, count, settings);
}

/** Text is printed as it is, ending in a newline; with --jq, a JSON text is filtered as any JSON. */
async function renderTextResult(text: string, { io, globals, jq }: RenderSettings): Promise<void> {
  if (jq) return (await import('../output/render.js')).renderText(text, { io, format: globals.output ?? 'json', jq });
  await out(showingControls(io), text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

/** A JSON array that never ends never parses: an endless list is NDJSON unless asked otherwise. */
function listFormat(result: ListResult, chosen: Format, { globals, jq, outputFlagGiven }: RenderSettings): Format {
  if (!result.endless || chosen !== 'json') return chosen;
  // --jq asks for JSON only by implication: a stream is then filtered record by record.
  if (globals.output === 'json' && !(jq && !outputFlagGiven))
    throw new UsageError(
      'a list that keeps going cannot be one JSON array: use -o ndjson (the default when piped), csv or table',
    );
  return 'ndjson';
}

/** What a person at a terminal is told on stderr: where records may be, and that a list was cut at one page. */
function listNotes(result: ListResult, count: number, { io, globals, pageLimit }: RenderSettings): void {
  if (count === 0 && result.whenEmpty && io.stderrIsTTY) err(io, `${result.whenEmpty}\n`);
  if (result.paged && pageLimit !== undefined && count === pageLimit && globals.limit === undefined && io.stderrIsTTY) {
    err(io, `Showing the first ${count}. Use --all for every page, or --limit N.\n`);
  }
}
