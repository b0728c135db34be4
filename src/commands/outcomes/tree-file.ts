// Reads an outcomes file — YAML or JSON (a nested tree), or CSV in the common outcomes-import layout
// (vendor_guid, object_type, title, description, display_name, calculation_method, calculation_int,
// parent_guids, workflow_state, mastery_points, ratings…) — into flat rows, one group or outcome
// each, checked before anything is sent and ordered parents first.
import { LineCounter, parseDocument, isMap, isSeq, isScalar, isCollection, type Node, type YAMLMap } from 'yaml';
import {
  controlCharacters,
  ERROR_COLUMN,
  isOneLine,
  MAX_DEPTH,
  MAX_FIELD_BYTES,
  MAX_FILE_VALUES,
  placeFields,
  placeWords,
  readCsvRecords,
  type Delimiter,
  scanInput,
  shapeOfName,
  TOO_DEEP,
  type CsvRow,
  type Parsed,
  type Place,
  type Problem,
} from '../../bulk/csv-input.js';
import { CALCULATION_METHODS } from '../../spec/types/outcomes.js';

/** The columns of a flat row, and of the failed-rows file (which imports as it is). */
export const TREE_COLUMNS = [
  'vendor_guid',
  'object_type',
  'title',
  'description',
  'display_name',
  'calculation_method',
  'calculation_int',
  'parent_guids',
  'mastery_points',
  'ratings',
] as const;
const CSV_COLUMNS = new Set<string>([...TREE_COLUMNS, 'workflow_state', ERROR_COLUMN]);
const MAX_TITLE = 255;
const CALC_INT: Record<string, [number, number]> = {
  decaying_average: [1, 99],
  weighted_average: [1, 99],
  n_mastery: [1, 10],
};
/**
 * The largest YAML or JSON tree read: the YAML library holds some 60 times the text while it reads,
 * and the largest published standards sets are a few MB. (CSV is lighter, and has the import limit.)
 */
const MAX_TREE_BYTES = 16 * 1024 * 1024;

export interface Rating {
  description: string;
  points: number;
}

/** `4:Exceeds;3:Meets` → ratings; undefined when a part is not `points:description`. */
export function parseRatings(cell: string): Rating[] | undefined {
  if (!cell.trim()) return [];
  const out: Rating[] = [];
  for (const part of cell.split(';')) {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?::(.*))?$/s.exec(part);
    if (!m) return undefined;
    out.push({ points: Number(m[1]), description: (m[2] ?? '').trim() });
  }
  return out;
}

export const formatRatings = (ratings: Rating[]) => ratings.map((r) => `${r.points}:${r.description}`).join(';');

// ---- checks shared by every format ------------------------------------------------------------

function checkRow(v: Record<string, string>): string[] {
  const problems: string[] = controlCharacters(v, ['description']);
  const type = v.object_type;
  if (type !== 'group' && type !== 'outcome')
    problems.push(`object_type must be group or outcome, not "${type ?? ''}"`);
  if (!v.vendor_guid) problems.push('vendor_guid is empty (every group and outcome needs one, so a re-run finds it)');
  else if (/\s/.test(v.vendor_guid)) problems.push(`vendor_guid "${v.vendor_guid}" contains a space`);
  if (!v.title) problems.push('title is empty');
  else if ([...v.title].length > MAX_TITLE) problems.push(`title is longer than ${MAX_TITLE} characters`);
  const parents = (v.parent_guids ?? '').split(/\s+/).filter(Boolean);
  if (type === 'group') {
    if (parents.length > 1) problems.push('a group has one parent at most');
    for (const f of ['mastery_points', 'ratings', 'calculation_method', 'calculation_int', 'display_name'] as const)
      if (v[f]) problems.push(`${f} applies to outcomes, not groups`);
    return problems;
  }
  if (v.mastery_points && !/^\d+(\.\d+)?$/.test(v.mastery_points))
    problems.push(`mastery_points "${v.mastery_points}" is not a number of 0 or more`);
  if (v.ratings && parseRatings(v.ratings) === undefined)
    problems.push(`ratings "${v.ratings}" is not a list of points:description`);
  else if (v.ratings && parseRatings(v.ratings)!.some((r) => r.points < 0))
    problems.push('a rating has negative points');
  if (v.calculation_method && !(CALCULATION_METHODS as readonly string[]).includes(v.calculation_method)) {
    problems.push(`calculation_method "${v.calculation_method}" is not one of ${CALCULATION_METHODS.join(', ')}`);
  }
  if (v.calculation_int) {
    const range = CALC_INT[v.calculation_method || 'decaying_average'];
    const n = Number(v.calculation_int);
    if (!range) problems.push(`calculation_int does not apply to ${v.calculation_method}`);
    else if (!/^\d+$/.test(v.calculation_int) || n < range[0] || n > range[1])
      problems.push(
        `calculation_int must be ${range[0]}-${range[1]} for ${v.calculation_method || 'decaying_average'}`,
      );
  }
  return problems;
}

/**
 * Row checks, then the file as a whole: unique GUIDs, parents that are groups of the file, no cycles; rows sorted
 * parents first.
 */
function finish(rows: CsvRow[], problems: Problem[]): Parsed {
  const groups = new Map<string, CsvRow>();
  const seen = new Map<string, Place>();
  const of = (row: CsvRow, message: string): Problem => ({ ...placeFields(row), message });
  for (const row of rows) {
    for (const message of checkRow(row.values)) problems.push(of(row, message));
    const guid = row.values.vendor_guid;
    if (!guid) continue;
    const first = seen.get(guid);
    if (first !== undefined) problems.push(of(row, `vendor_guid "${guid}" repeats ${placeWords(first)}`));
    else seen.set(guid, placeFields(row));
    if (row.values.object_type === 'group') groups.set(guid, row);
  }
  for (const row of rows) {
    for (const parent of (row.values.parent_guids ?? '').split(/\s+/).filter(Boolean)) {
      if (!groups.has(parent))
        problems.push(of(row, `parent_guids names "${parent}", which is not a group of this file`));
    }
  }
  // Depth of each group (root's children are 1); a cycle never reaches the root. Walked with a
  // list, not recursion: a chain of parents may be as long as the file.
  const depth = new Map<string, number>();
  const depthOf = (guid: string): number => {
    const chain: string[] = [];
    const onChain = new Set<string>();
    let at: string | undefined = guid;
    let base = 0;
    while (at !== undefined) {
      const known = depth.get(at);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (onChain.has(at)) {
        base = Number.POSITIVE_INFINITY;
        break;
      }
      chain.push(at);
      onChain.add(at);
      const parent: string | undefined = groups.get(at)?.values.parent_guids?.trim();
      at = parent && groups.has(parent) ? parent : undefined;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      base += 1;
      depth.set(chain[i], base);
    }
    return depth.get(guid)!;
  };
  for (const [guid, row] of groups) {
    if (depthOf(guid) === Number.POSITIVE_INFINITY)
      problems.push(of(row, `group "${guid}" is its own ancestor (parent_guids form a cycle)`));
  }
  const rank = (r: CsvRow) =>
    r.values.object_type === 'group' ? depthOf(r.values.vendor_guid) : Number.MAX_SAFE_INTEGER;
  const sorted = [...rows].sort((a, b) => rank(a) - rank(b) || a.line - b.line);
  // In the file's order: by line, and on a shared line (a document on one line) by place.
  const order = new Map(rows.map((r, i) => [r.at, i]));
  const rankOf = (p: Problem) => (p.at === undefined ? -1 : (order.get(p.at) ?? -1));
  return {
    rows: sorted,
    problems: problems.sort((a, b) => a.line - b.line || rankOf(a) - rankOf(b)),
    header: [...TREE_COLUMNS],
  };
}

// ---- CSV --------------------------------------------------------------------------------------

function readCsv(bytes: Buffer, delimiter?: Delimiter): Parsed {
  const read = readCsvRecords(bytes, { columns: TREE_COLUMNS, relaxColumnCount: true, delimiter });
  if ('problem' in read) return { rows: [], header: [], problems: [read.problem] };
  const { header, records } = read;
  const ratingsAt = header.indexOf('ratings');
  const problems: Problem[] = [];
  header.forEach((h, i) => {
    // Rating cells go on past the `ratings` column, under blank headers: points, description, points…
    if (h === '' && ratingsAt >= 0 && i > ratingsAt) return;
    if (!CSV_COLUMNS.has(h))
      problems.push({
        line: 1,
        message: `unknown column "${h}"; the header may use ${[...TREE_COLUMNS, 'workflow_state'].join(', ')}`,
      });
  });
  for (const required of ['vendor_guid', 'object_type', 'title'])
    if (!header.includes(required)) problems.push({ line: 1, message: `missing required column ${required}` });
  if (problems.length) return { rows: [], header: [...TREE_COLUMNS], problems };
  const rows: CsvRow[] = [];
  for (const { line, cells } of records) {
    const values: Record<string, string> = {};
    header.forEach((h, i) => {
      if (h && h !== ERROR_COLUMN && h !== 'ratings') values[h] = cells[i]?.trim() ?? '';
    });
    if (ratingsAt >= 0) {
      const ratingCells = cells.slice(ratingsAt).map((c) => c.trim());
      if (ratingCells.length > 1 || (ratingCells[0] !== undefined && /^\s*-?\d+(\.\d+)?\s*$/.test(ratingCells[0]))) {
        // The pairs layout: points, description, points, description…
        const pairs: Rating[] = [];
        let bad = false;
        for (let i = 0; i < ratingCells.length; i += 2) {
          if (!ratingCells[i] && !ratingCells[i + 1]) continue;
          if (!/^-?\d+(\.\d+)?$/.test(ratingCells[i])) bad = true;
          pairs.push({ points: Number(ratingCells[i]), description: ratingCells[i + 1] ?? '' });
        }
        if (bad) problems.push({ line, message: 'ratings must be pairs of points and description' });
        values.ratings = bad ? '' : formatRatings(pairs);
      } else {
        values.ratings = ratingCells[0] ?? '';
      }
    }
    const state = values.workflow_state;
    delete values.workflow_state;
    if (state && state !== 'active')
      problems.push({
        line,
        message:
          `workflow_state "${state}": an import only creates and updates; unlink or delete with lms outcomes ` +
          'unlink / groups delete',
      });
    rows.push({ line, values });
  }
  return finish(rows, problems);
}

// ---- YAML and JSON ----------------------------------------------------------------------------

const GROUP_KEYS = new Set(['title', 'vendor_guid', 'description', 'groups', 'outcomes']);
const OUTCOME_KEYS = new Set([
  'title',
  'vendor_guid',
  'description',
  'display_name',
  'mastery_points',
  'ratings',
  'calculation_method',
  'calculation_int',
]);

function readTree(text: string): Parsed {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  if (doc.errors.length) {
    // The library reports running out of stack as an error of its own: that is nesting, too deep.
    return {
      rows: [],
      header: [...TREE_COLUMNS],
      problems: doc.errors.map((e) => ({
        line: e.linePos?.[0]?.line ?? lines.linePos(Math.min(e.pos[0], Math.max(text.length - 1, 0))).line,
        message: e.code === 'RESOURCE_EXHAUSTION' ? TOO_DEEP : e.message.split('\n')[0],
      })),
    };
  }
  const tooBig = firstTooBig(doc.contents);
  if (tooBig)
    return { rows: [], header: [...TREE_COLUMNS], problems: [{ line: lineOf(tooBig.node), message: tooBig.message }] };
  const problems: Problem[] = [];
  const rows: CsvRow[] = [];
  const outcomes = new Map<string, CsvRow>();
  const root = doc.contents;
  if (!isMap(root))
    return {
      rows: [],
      header: [...TREE_COLUMNS],
      problems: [{ line: lineOf(root), message: 'the file must be a map with groups: and/or outcomes: lists' }],
    };

  // A problem belongs to the row (group or outcome) it is in — `at` is the row's place, the line
  // that of the node at fault — so that --skip-invalid leaves out the row a problem is in.
  // `at` undefined: the file's top level, which no row is.
  const oneLine = isOneLine(text);
  const placed = (at: string, node: Node | null | undefined): Place => ({
    line: lineOf(node),
    at,
    ...(oneLine ? { oneLine } : {}),
  });
  const problem = (at: string | undefined, node: Node | null | undefined, message: string) => {
    problems.push({ ...(at !== undefined ? placed(at, node) : { line: lineOf(node) }), message });
  };

  const scalarText = (at: string, map: YAMLMap, key: string): string => {
    const node = map.get(key, true) as Node | undefined;
    if (node === undefined || node === null) return '';
    if (!isScalar(node)) {
      problem(at, node, `${key} must be a single value`);
      return '';
    }
    return node.value === null ? '' : String(node.value).trim();
  };

  const keysOf = (at: string | undefined, map: YAMLMap, allowed: Set<string>, what: string) => {
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!allowed.has(key))
        problem(at, pair.key as Node, `unknown key "${key}" in ${what}; use ${[...allowed].join(', ')}`);
    }
  };

  const ratingsOf = (at: string, map: YAMLMap): string => {
    const node = map.get('ratings', true) as Node | undefined;
    if (node === undefined || node === null) return '';
    if (!isSeq(node)) {
      problem(at, node, 'ratings must be a list of {points, description} (or "points:description")');
      return '';
    }
    const out: Rating[] = [];
    for (const item of node.items as Node[]) {
      if (isScalar(item)) {
        const parsed = parseRatings(String(item.value));
        if (parsed?.length !== 1) problem(at, item, `rating "${String(item.value)}" is not points:description`);
        else out.push(parsed[0]);
      } else if (isMap(item)) {
        keysOf(at, item, new Set(['points', 'description']), 'a rating');
        const points = scalarText(at, item, 'points');
        if (points !== '' && !/^-?\d+(\.\d+)?$/.test(points))
          problem(at, item, `rating points "${points}" is not a number`);
        out.push({
          points: points === '' ? 0 : Number(points),
          description: scalarText(at, item, 'description').replace(/;/g, ','),
        });
      } else {
        problem(at, item, 'a rating must be {points, description} or "points:description"');
      }
    }
    return formatRatings(out);
  };

  const listOf = (at: string | undefined, map: YAMLMap, key: string): Node[] => {
    const node = map.get(key, true) as Node | undefined;
    if (node === undefined || node === null) return [];
    if (!isSeq(node)) {
      problem(at, node, `${key} must be a list`);
      return [];
    }
    return node.items as Node[];
  };

  const outcome = (node: Node, at: string, parent: string) => {
    if (!isMap(node)) return problem(at, node, 'an outcome must be a map (title, vendor_guid, …)');
    keysOf(at, node, OUTCOME_KEYS, 'an outcome');
    const values: Record<string, string> = {
      vendor_guid: scalarText(at, node, 'vendor_guid'),
      object_type: 'outcome',
      title: scalarText(at, node, 'title'),
      description: scalarText(at, node, 'description'),
      display_name: scalarText(at, node, 'display_name'),
      calculation_method: scalarText(at, node, 'calculation_method'),
      calculation_int: scalarText(at, node, 'calculation_int'),
      parent_guids: parent,
      mastery_points: scalarText(at, node, 'mastery_points'),
      ratings: ratingsOf(at, node),
    };
    const earlier = values.vendor_guid ? outcomes.get(values.vendor_guid) : undefined;
    if (earlier) {
      // The same outcome linked in another group: defined once, repeated elsewhere by its vendor_guid
      // alone (or with the same fields), in either order. The one row is the definition's.
      const parents = earlier.values.parent_guids.split(' ').filter(Boolean);
      if (parents.includes(parent) || (!parent && parents.length === 0))
        problem(at, node, `outcome "${values.vendor_guid}" is listed twice in the same group`);
      const merged = [...parents, parent].filter(Boolean).join(' ');
      const keys = Object.keys(values).filter((k) => k !== 'parent_guids' && k !== 'object_type');
      if (!earlier.values.title && values.title) {
        // The first was a reference; this is the definition.
        Object.assign(earlier.values, values);
        Object.assign(earlier, placed(at, node));
      } else {
        const differing = keys.filter((k) => values[k] !== '' && values[k] !== earlier.values[k]);
        if (differing.length)
          problem(
            at,
            node,
            `outcome "${values.vendor_guid}" is defined at ${placeWords(earlier)}; repeat only its vendor_guid to ` +
              `link it here too (this one has other ${differing.join(', ')})`,
          );
      }
      earlier.values.parent_guids = merged;
      return;
    }
    const row = { ...placed(at, node), values };
    if (values.vendor_guid) outcomes.set(values.vendor_guid, row);
    rows.push(row);
  };

  const group = (node: Node, at: string, parent: string) => {
    if (!isMap(node)) return problem(at, node, 'a group must be a map (title, vendor_guid, groups, outcomes)');
    keysOf(at, node, GROUP_KEYS, 'a group');
    const values: Record<string, string> = {
      vendor_guid: scalarText(at, node, 'vendor_guid'),
      object_type: 'group',
      title: scalarText(at, node, 'title'),
      description: scalarText(at, node, 'description'),
      parent_guids: parent,
    };
    rows.push({ ...placed(at, node), values });
    const groups = listOf(at, node, 'groups');
    const children = listOf(at, node, 'outcomes');
    groups.forEach((child, i) => {
      group(child, `${at}.groups[${i}]`, values.vendor_guid);
    });
    children.forEach((child, i) => {
      outcome(child, `${at}.outcomes[${i}]`, values.vendor_guid);
    });
  };

  keysOf(undefined, root, new Set(['groups', 'outcomes']), 'the file');
  listOf(undefined, root, 'groups').forEach((node, i) => {
    group(node, `groups[${i}]`, '');
  });
  listOf(undefined, root, 'outcomes').forEach((node, i) => {
    outcome(node, `outcomes[${i}]`, '');
  });
  if (rows.length === 0 && problems.length === 0)
    problems.push({ line: 1, message: 'the file has no groups and no outcomes' });
  return finish(rows, problems);
}

/**
 * The first collection nested deeper than MAX_DEPTH, or value larger than MAX_FIELD_BYTES (a block
 * scalar runs over many lines, each short), found with a list rather than recursion.
 */
function firstTooBig(root: Node | null): { node: Node; message: string } | undefined {
  const stack: [Node | null | undefined, number][] = [[root, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (isScalar(node)) {
      if (typeof node.value === 'string' && Buffer.byteLength(node.value) > MAX_FIELD_BYTES)
        return { node, message: `a value is larger than ${MAX_FIELD_BYTES / 1024 / 1024} MiB` };
    } else if (isCollection(node)) {
      if (depth > MAX_DEPTH) return { node, message: TOO_DEEP };
      for (const item of node.items as unknown[]) {
        if (isMap(node)) {
          const pair = item as { key: Node | null; value: Node | null };
          stack.push([pair.value, depth + 1], [pair.key, depth + 1]);
        } else stack.push([item as Node, depth + 1]);
      }
    }
  }
  return undefined;
}

/** CSV by its extension or its header; YAML or JSON (which YAML reads) otherwise. */
export function parseTreeFile(bytes: Buffer, name: string, options: { delimiter?: Delimiter } = {}): Parsed {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '');
  const csv =
    /\.csv$/i.test(name) || (!/\.(ya?ml|json)$/i.test(name) && /^[^\n{[:#]*vendor_guid[^\n:]*[,;\t]/i.test(head));
  if (csv) return readCsv(bytes, options.delimiter);
  const refuse = (line: number, message: string): Parsed => ({
    rows: [],
    header: [...TREE_COLUMNS],
    problems: [{ line, message }],
  });
  if (bytes.length > MAX_TREE_BYTES)
    return refuse(
      1,
      `the file is larger than ${MAX_TREE_BYTES / 1024 / 1024} MiB, the most read as YAML or JSON; split the tree, ` +
        'or give it as CSV',
    );
  // Before the YAML library sees it: a runaway value or nesting costs it far more than the text.
  const nested = shapeOfName(name) === 'nested' || /^\s*[[{]/.test(head);
  const problem = scanInput(bytes, nested ? 'nested' : 'lines', {
    maxValues: MAX_FILE_VALUES,
    tooManyAdvice: 'split the tree, or give it as CSV',
  });
  if (problem) return refuse(problem.line, problem.message);
  return readTree(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''));
}
