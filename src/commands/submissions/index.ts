// `lms submissions`: list, read, submit and comment on submissions of a course or a section.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags, oneContext } from '../../model/define.js';
import type { ApiClient } from '../../client/client.js';
import {
  SUBMISSION_INCLUDES,
  type NewSubmission,
  type SubmissionContext,
  type SubmissionInclude,
} from '../../spec/types/submissions.js';
import { courseScope, resolveUserPath } from '../../client/user-ref.js';
import { ApiError, LmsError, UsageError } from '../../errors.js';

const COLUMNS = [
  'user_id',
  'user.name',
  'assignment_id',
  'workflow_state',
  'attempt',
  'submitted_at',
  'late',
  'grade',
  'score',
  'graded_at',
];

const where = {
  course: contextFlags.course,
  section: contextFlags.section,
};
const assignment = { long: 'assignment', value: 'id', ids: 'assignment', description: 'assignment id' } as const;
const include = {
  long: 'include',
  value: 'what',
  description: `also return ${SUBMISSION_INCLUDES.join(', ')} (repeatable)`,
  repeatable: true,
  choices: SUBMISSION_INCLUDES,
} as const;

/** `{ course_id }` or `{ section_id }` from --course / --section. */
export function submissionContext(opts: { course?: string; section?: string }): SubmissionContext {
  const chosen = oneContext(opts, ['course', 'section']);
  return chosen.type === 'course' ? { course_id: chosen.id } : { section_id: chosen.id };
}

/** The students `--user` names, as `student_ids[]` takes them: an address looked up among the course's people. */
function studentPaths(client: ApiClient, sctx: SubmissionContext, users: string[]): Promise<string[]> {
  const scope = courseScope(client, sctx);
  return Promise.all(users.map((u) => resolveUserPath(client, u, scope)));
}

/**
 * Every student's submission of an assignment is a grader's list: real instances refuse it (401) to
 * a student or an observer, who read theirs across assignments (/students/submissions). The refusal
 * names the command that does that, rather than this one narrowing the list in silence to the
 * caller's own (a script would take one row for the whole class).
 */
async function* gradersList<T>(items: AsyncIterable<T>, command: string): AsyncIterable<T> {
  try {
    yield* items;
  } catch (error) {
    // A refused token (expired, revoked) is not a refused list: its own hint says what to do.
    if (
      !(
        error instanceof ApiError &&
        (error.status === 401 || error.status === 403) &&
        !error.throttled &&
        !error.tokenRefused
      )
    )
      throw error;
    throw new LmsError(error.message, error.exitCode, {
      cause: error,
      hint:
        `every student's submissions of an assignment are for those who grade or view all grades; your own: ` +
        `${command} --user self (an observer: --user STUDENT)`,
      details: { status: error.status, method: error.method, url: error.url },
    });
  }
}

const listSubmissions = command({
  name: 'list',
  summary: "List submissions: an assignment's (--assignment), or students' across assignments (--user, --all-students)",
  aliases: ['ls'],
  routes: [
    'submissions.list@courses',
    'submissions.list@sections',
    'submissions.listStudents@courses',
    'submissions.listStudents@sections',
  ],
  lookups: ['courses.users', 'sections.get'],
  columns: COLUMNS,
  options: {
    ...where,
    assignment: {
      ...assignment,
      description: 'assignment id; with --user, one of the assignments to list (repeatable)',
      repeatable: true,
    },
    user: {
      ...contextFlags.user,
      description: 'a student (repeatable); default: yourself, or everyone of an --assignment',
      repeatable: true,
    },
    allStudents: { long: 'all-students', description: 'every student you may see, across assignments' },
    grouped: { long: 'grouped', description: 'one record per student, with their submissions' },
    totals: { long: 'totals', description: "with --grouped: each student's current and final score" },
    include,
  },
  examples: [
    'lms submissions list --course 1 --assignment 1',
    'lms submissions list --section sis_section_id:BIO-101-B --assignment 1 --include submission_comments',
    'lms submissions list --course 1 --all-students --grouped --totals',
  ],
  async run({ opts, ctx }) {
    const sctx = submissionContext(opts);
    const client = await ctx.client();
    const options = { limit: ctx.pageLimit() };
    // The student's record comes with each submission, so a table can name them (the `user.name` column).
    const inc = [...new Set([...(opts.include ?? []), ...(opts.grouped ? [] : ['user'])])] as SubmissionInclude[];
    if (opts.totals && !opts.grouped) throw new UsageError('--totals goes with --grouped');
    if (opts.assignment?.length === 1 && !opts.user && !opts.allStudents && !opts.grouped) {
      const where = opts.course !== undefined ? `--course ${opts.course}` : `--section ${opts.section}`;
      return list(
        gradersList(
          client.ops.submissions.list({ ...sctx, assignment_id: opts.assignment[0], include: inc }, options),
          `lms submissions list ${where} --assignment ${opts.assignment[0]}`,
        ),
      );
    }
    if (opts.user && opts.allStudents) throw new UsageError('give --user or --all-students, not both');
    const items = client.ops.submissions.listStudents(
      {
        ...sctx,
        student_ids: opts.allStudents ? ['all'] : opts.user && (await studentPaths(client, sctx, opts.user)),
        assignment_ids: opts.assignment,
        grouped: opts.grouped || undefined,
        include: opts.totals ? [...inc, 'total_scores'] : inc,
      },
      options,
    );
    return list(
      items,
      opts.grouped ? ['user_id', 'section_id', 'computed_current_score', 'computed_final_score'] : undefined,
    );
  },
});

const getSubmission = command({
  name: 'get',
  summary: "Show one student's submission of an assignment",
  routes: ['submissions.get@courses', 'submissions.get@sections'],
  lookups: ['courses.users', 'sections.get'],
  options: {
    ...where,
    assignment: { ...assignment, required: true },
    user: { ...contextFlags.user, description: 'the student: yourself unless given', default: 'self' },
    include,
  },
  examples: [
    'lms submissions get --course 1 --assignment 1 --user 7 --include submission_history --include submission_comments',
  ],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    const sctx = submissionContext(opts);
    return item(
      await client.ops.submissions.get({
        ...sctx,
        assignment_id: opts.assignment,
        user_id: await resolveUserPath(client, opts.user, courseScope(client, sctx)),
        include: opts.include as SubmissionInclude[] | undefined,
      }),
    );
  },
});

async function uploadAll(
  client: ApiClient,
  sctx: SubmissionContext,
  assignmentId: string,
  paths: string[],
): Promise<number[]> {
  const { readFile, stat } = await import('node:fs/promises');
  const { basename } = await import('node:path');
  const { contentTypeFor } = await import('../../mime.js');
  const { uploadFile } = await import('../../client/upload.js');
  const ids: number[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
  }
  for (const path of paths) {
    const data = new Uint8Array(await readFile(path));
    const name = basename(path);
    const contentType = contentTypeFor(name);
    const ticket = await client.ops.submissions.uploadFile({
      ...sctx,
      assignment_id: assignmentId,
      user_id: 'self',
      name,
      size: data.byteLength,
      content_type: contentType,
    });
    ids.push((await uploadFile(client, ticket, { name, data, contentType })).id);
  }
  return ids;
}

const submit = command({
  name: 'submit',
  summary:
    'Submit an assignment as a student: text, a URL, files or a media recording (each submission is a new attempt)',
  // users.get: --as-user (a student's submission made by an admin acting as them) checks the user first.
  routes: [
    'submissions.submit@courses',
    'submissions.submit@sections',
    'submissions.uploadFile@courses',
    'submissions.uploadFile@sections',
    'files.upload',
    'files.confirm',
    'users.get',
  ],
  options: {
    ...where,
    assignment: { ...assignment, required: true },
    text: { long: 'text', value: 'html', description: 'online_text_entry: the text (HTML)' },
    textFile: {
      file: 'read',
      long: 'text-file',
      value: 'path',
      description: 'online_text_entry: the text, read from a file (- for stdin)',
    },
    url: { long: 'url', value: 'url', description: 'online_url: a web address (http:// assumed)' },
    file: {
      file: 'uploaded',
      long: 'file',
      value: 'path',
      description: 'online_upload: a file to upload and submit (repeatable)',
      repeatable: true,
    },
    mediaId: { long: 'media-id', value: 'id', description: 'media_recording: the media object id' },
    mediaType: {
      long: 'media-type',
      value: 'type',
      description: 'media_recording: audio or video (default video)',
      choices: ['audio', 'video'],
    },
    comment: { long: 'comment', value: 'text', description: 'a comment to go with it' },
  },
  examples: [
    'lms submissions submit --course 1 --assignment 1 --text "<p>My report</p>" --as-user 7',
    'lms submissions submit --course 1 --assignment 3 --url docs.example.edu/essay --as-user 7',
    'lms submissions submit --course 1 --assignment 1 --file notes.txt --comment "Second try" --as-user 9',
  ],
  async run({ opts, ctx }) {
    const sctx = submissionContext(opts);
    const given = (['text', 'textFile', 'url', 'file', 'mediaId'] as const).filter((k) => opts[k] !== undefined);
    if (given.length !== 1)
      throw new UsageError(
        'give exactly one of --text, --text-file, --url, --file or ' +
          `--media-id${given.length ? `, not ${given.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(' and ')}` : ''}`,
      );
    if (opts.mediaType && !opts.mediaId) throw new UsageError('--media-type goes with --media-id');
    let submission: NewSubmission;
    const client = await ctx.client();
    if (opts.text !== undefined) submission = { submission_type: 'online_text_entry', body: opts.text };
    else if (opts.textFile !== undefined) {
      const { readInput } = await import('../../bulk/csv-input.js');
      submission = {
        submission_type: 'online_text_entry',
        body: (await readInput(ctx.input(opts.textFile), ctx.io.stdin)).bytes.toString('utf8'),
      };
    } else if (opts.url !== undefined) submission = { submission_type: 'online_url', url: opts.url };
    else if (opts.file)
      submission = {
        submission_type: 'online_upload',
        file_ids: await uploadAll(client, sctx, opts.assignment, opts.file),
      };
    else
      submission = {
        submission_type: 'media_recording',
        media_comment_id: opts.mediaId!,
        media_comment_type: (opts.mediaType as 'audio' | 'video' | undefined) ?? 'video',
      };
    return item(
      await client.ops.submissions.submit({
        ...sctx,
        assignment_id: opts.assignment,
        submission,
        comment: opts.comment ? { text_comment: opts.comment } : undefined,
      }),
    );
  },
});

const comment = command({
  name: 'comment',
  args: [{ name: 'text', optional: true }],
  summary: "Comment on a student's submission (text and/or a media comment)",
  routes: ['submissions.grade@courses', 'submissions.grade@sections'],
  lookups: ['courses.users', 'sections.get'],
  options: {
    ...where,
    assignment: { ...assignment, required: true },
    user: { ...contextFlags.user, description: 'the student: yourself unless given', default: 'self' },
    mediaId: { long: 'media-id', value: 'id', description: 'a media comment: the media object id' },
    mediaType: {
      long: 'media-type',
      value: 'type',
      description: 'audio or video (default video)',
      choices: ['audio', 'video'],
    },
    group: { long: 'group', description: 'on a group assignment, comment to the whole group' },
  },
  examples: ['lms submissions comment --course 1 --assignment 1 --user 7 "Nice work on the drawings"'],
  async run({ args, opts, ctx }) {
    const text = args[0];
    if (!text?.trim() && !opts.mediaId) throw new UsageError('give the comment text, or --media-id');
    const client = await ctx.client();
    const sctx = submissionContext(opts);
    const updated = await client.ops.submissions.grade({
      ...sctx,
      assignment_id: opts.assignment,
      user_id: await resolveUserPath(client, opts.user, courseScope(client, sctx)),
      comment: {
        text_comment: text,
        media_comment_id: opts.mediaId,
        media_comment_type: opts.mediaType as 'audio' | 'video' | undefined,
        group_comment: opts.group || undefined,
      },
    });
    return item(updated.submission_comments?.at(-1) ?? updated);
  },
});

export const submissionsVerbs: Verbs = [listSubmissions, getSubmission, submit, comment] as Verbs;
