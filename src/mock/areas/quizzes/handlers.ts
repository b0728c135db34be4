// Quizzes: list (partial-title search), read, create, edit. Every rule of the spec between the
// parameters is enforced with a 400 naming the parameter; a graded quiz carries an assignment; a
// quiz students have started or submitted cannot be unpublished.
import type { Quiz } from '../../../spec/types/quizzes.js';
import { HIDE_RESULTS, QUIZ_TYPES, SCORING_POLICIES } from '../../../spec/types/quizzes.js';
import type { ParamsObject } from '../../decode.js';
import {
  bool,
  HttpError,
  invalid,
  notFound,
  numericId,
  obj,
  once,
  paginate,
  keysetSource,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { text, textFault } from '../../fields.js';
import { allows, canManageContent, permit, readableCourse } from '../access.js';
import { quizzesPolicy } from './policy.js';
import { defaultGroupOf, groupById } from '../assignment-groups/repo.js';
import type { CourseRow } from '../../school/courses/repo.js';
import {
  createQuiz,
  hasStudentSubmissions,
  QUIZ_DEFAULTS,
  quizById,
  quizzesOfCourseQuery,
  syncQuizAssignment,
  updateQuiz,
  type QuizRow,
  type QuizValues,
} from './repo.js';

const GRADED = new Set(['assignment', 'graded_survey']);
const TITLE = text({ required: true });

const grades = (ctx: MockCtx, course: CourseRow) =>
  once(ctx, `quizzes:grade:${course.id}`, () => allows(ctx, quizzesPolicy.grade, { course }));

function quizJson(ctx: MockCtx, q: QuizRow, course: CourseRow): Quiz {
  const html = `${ctx.origin}/courses/${q.course_id}/quizzes/${q.id}`;
  const manager = canManageContent(ctx, course);
  const now = ctx.now();
  const locked = !manager && ((q.lock_at !== null && q.lock_at <= now) || (q.unlock_at !== null && q.unlock_at > now));
  const json: Quiz = {
    id: q.id,
    title: q.title,
    html_url: html,
    mobile_url: `${html}?force_user=1&persist_headless=1`,
    description: q.description,
    quiz_type: q.quiz_type as Quiz['quiz_type'],
    assignment_group_id: q.assignment_group_id,
    assignment_id: q.assignment_id,
    time_limit: q.time_limit,
    shuffle_answers: q.shuffle_answers === 1,
    hide_results: q.hide_results as Quiz['hide_results'],
    show_correct_answers: q.show_correct_answers === 1,
    scoring_policy: q.scoring_policy as Quiz['scoring_policy'],
    allowed_attempts: q.allowed_attempts,
    one_question_at_a_time: q.one_question_at_a_time === 1,
    question_count: q.question_count,
    points_possible: q.points_possible,
    cant_go_back: q.cant_go_back === 1,
    ip_filter: q.ip_filter,
    due_at: q.due_at,
    lock_at: q.lock_at,
    unlock_at: q.unlock_at,
    published: q.published === 1,
    locked_for_user: locked,
    permissions: {
      read: true,
      submit: !manager,
      create: manager,
      manage: manager,
      update: manager,
      read_statistics: manager,
      review_grades: grades(ctx, course),
    },
  };
  if (locked) {
    const lockedUntil = q.unlock_at !== null && q.unlock_at > now;
    json.lock_info = {
      asset_string: `quiz_${q.id}`,
      ...(q.unlock_at ? { unlock_at: q.unlock_at } : {}),
      ...(q.lock_at ? { lock_at: q.lock_at } : {}),
    };
    json.lock_explanation = lockedUntil
      ? `This quiz is locked until ${q.unlock_at}.`
      : `This quiz was locked ${q.lock_at}.`;
  }
  if (manager) {
    const started = hasStudentSubmissions(ctx.db, q.id);
    json.unpublishable = !started;
    json.can_unpublish = !started;
  }
  // As real instances filter it: the access code for those who grade or manage the quiz, grading
  // links for graders only; the IP filter is for everyone taking the quiz.
  if (manager || grades(ctx, course)) json.access_code = q.access_code;
  if (grades(ctx, course)) {
    json.speed_grader_url =
      q.published && q.assignment_id !== null
        ? `${ctx.origin}/courses/${q.course_id}/gradebook/speed_grader?assignment_id=${q.assignment_id}`
        : null;
  }
  return json;
}

/** A 400 naming the parameter, in the shape real instances answer quiz validation failures with. */
const wrong = (field: string, message: string) => invalid(undefined, field, 'invalid', message);

/** `a.b.c.d`: four octets of 0-255. */
function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** A dotted mask is contiguous ones then zeros (255.255.255.0, not 255.0.255.0). */
function isDottedMask(text: string): boolean {
  if (!isIpv4(text)) return false;
  const bits = text
    .split('.')
    .map((p) => Number(p).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits);
}

/** `ip_filter`: comma-separated addresses, each optionally with a mask (`/24` or `/255.255.255.0`). */
export function ipFilterProblem(filter: string): string | undefined {
  for (const raw of filter.split(',')) {
    const entry = raw.trim();
    if (!entry) return 'has an empty entry';
    const [address, mask, extra] = entry.split('/');
    if (extra !== undefined || !isIpv4(address)) return `"${entry}" is not an IP address or an address with a mask`;
    if (mask === undefined) continue;
    if (/^\d{1,2}$/.test(mask) ? Number(mask) > 32 : !isDottedMask(mask))
      return `"${entry}" has an invalid mask (use /0-/32 or a dotted mask such as /255.255.255.0)`;
  }
  return undefined;
}

/** A nullable parameter: '' and null clear it; absent leaves the current value. */
function given(q: ParamsObject, name: string): boolean {
  return Object.hasOwn(q, name);
}
const blank = (q: ParamsObject, name: string) => q[name] === null || q[name] === '';

function intField(q: ParamsObject, name: string): number | undefined {
  const v = str(q, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) throw wrong(name, `${name} must be an integer`);
  return Number(v);
}

function boolField(q: ParamsObject, name: string, current: boolean): boolean {
  if (!given(q, name)) return current;
  const v = q[name];
  if (typeof v === 'boolean') return v;
  const s = str(q, name)?.toLowerCase();
  if (s === undefined || !['true', 'false', '1', '0', 't', 'f', 'on', 'off', 'yes', 'no', ''].includes(s))
    throw wrong(name, `${name} must be true or false`);
  return bool(q, name) ?? false;
}

function timeField(q: ParamsObject, name: string, current: string | null): string | null {
  if (!given(q, name)) return current;
  if (blank(q, name)) return null;
  try {
    return timestamp(q, name) ?? null;
  } catch {
    throw wrong(name, `${name} is not a valid timestamp: ${str(q, name)}`);
  }
}

function choice<T extends string>(q: ParamsObject, name: string, choices: readonly T[]): T | undefined {
  const v = str(q, name);
  if (v === undefined) return undefined;
  if (!(choices as readonly string[]).includes(v)) throw wrong(name, `${name} must be one of ${choices.join(', ')}`);
  return v as T;
}

/**
 * The quiz as `quiz[...]` would leave it, checked rule by rule. A rule broken by a parameter of this
 * request is a 400 naming it; a value the request did not touch that a changed one makes
 * meaningless (a scoring policy once attempts go back to 1) is cleared instead.
 */
function quizValues(ctx: MockCtx, course: CourseRow, current: QuizValues, q: ParamsObject): QuizValues {
  const v: QuizValues = { ...current };
  if (given(q, 'title')) {
    const title = str(q, 'title')?.trim() ?? '';
    const fault = textFault(TITLE, title);
    if (fault) throw wrong('title', `title ${fault.message}`);
    v.title = title;
  }
  if (given(q, 'description')) v.description = blank(q, 'description') ? null : (str(q, 'description') ?? null);
  v.quiz_type = choice(q, 'quiz_type', QUIZ_TYPES) ?? v.quiz_type;
  const graded = GRADED.has(v.quiz_type);

  if (given(q, 'assignment_group_id') && !blank(q, 'assignment_group_id')) {
    const groupId = intField(q, 'assignment_group_id');
    if (!graded)
      throw wrong(
        'assignment_group_id',
        'assignment_group_id is only valid for graded quizzes (quiz_type assignment or graded_survey), not ' +
          `${v.quiz_type}`,
      );
    if (groupId === undefined || !groupById(ctx.db, course.id, groupId))
      throw wrong(
        'assignment_group_id',
        `assignment group ${groupId} is not an assignment group of course ${course.id}`,
      );
    v.assignment_group_id = groupId;
  }
  // A graded quiz goes into the course's top assignment group unless told otherwise.
  v.assignment_group_id = graded ? (v.assignment_group_id ?? defaultGroupOf(ctx.db, course.id, ctx.now())) : null;

  if (given(q, 'time_limit')) {
    const limit = blank(q, 'time_limit') ? null : intField(q, 'time_limit')!;
    if (limit !== null && limit < 1)
      throw wrong('time_limit', 'time_limit must be a number of minutes of at least 1, or null for none');
    v.time_limit = limit;
  }
  v.shuffle_answers = boolField(q, 'shuffle_answers', v.shuffle_answers === 1) ? 1 : 0;

  if (given(q, 'allowed_attempts')) {
    const attempts = intField(q, 'allowed_attempts');
    if (attempts === undefined || attempts === 0 || attempts < -1)
      throw wrong(
        'allowed_attempts',
        'allowed_attempts must be a number of attempts of at least 1, or -1 for unlimited',
      );
    v.allowed_attempts = attempts;
  }
  const several = v.allowed_attempts > 1 || v.allowed_attempts === -1;

  if (given(q, 'scoring_policy')) {
    const policy = blank(q, 'scoring_policy') ? null : choice(q, 'scoring_policy', SCORING_POLICIES)!;
    if (policy !== null && !several)
      throw wrong('scoring_policy', 'scoring_policy is only valid with more than one allowed attempt');
    v.scoring_policy = policy;
  }
  // Required with several attempts (keep_highest when not given); meaningless with one.
  v.scoring_policy = several ? (v.scoring_policy ?? 'keep_highest') : null;

  if (given(q, 'hide_results'))
    v.hide_results = blank(q, 'hide_results') ? null : choice(q, 'hide_results', HIDE_RESULTS)!;
  if (v.hide_results === 'until_after_last_attempt' && !several) {
    throw wrong(
      'hide_results',
      'hide_results=until_after_last_attempt is only valid with more than one allowed attempt',
    );
  }
  if (given(q, 'show_correct_answers')) {
    const show = boolField(q, 'show_correct_answers', true);
    if (show && v.hide_results !== null)
      throw wrong(
        'show_correct_answers',
        `show_correct_answers is only valid when results are not hidden (hide_results is ${v.hide_results})`,
      );
    v.show_correct_answers = show ? 1 : 0;
  } else if (v.hide_results !== null) {
    v.show_correct_answers = 0;
  }

  v.one_question_at_a_time = boolField(q, 'one_question_at_a_time', v.one_question_at_a_time === 1) ? 1 : 0;
  if (given(q, 'cant_go_back')) {
    const cantGoBack = boolField(q, 'cant_go_back', false);
    if (cantGoBack && !v.one_question_at_a_time)
      throw wrong('cant_go_back', 'cant_go_back is only valid with one_question_at_a_time');
    v.cant_go_back = cantGoBack ? 1 : 0;
  } else if (!v.one_question_at_a_time) {
    v.cant_go_back = 0;
  }

  if (given(q, 'access_code')) v.access_code = blank(q, 'access_code') ? null : (str(q, 'access_code') ?? null);
  if (given(q, 'ip_filter')) {
    const filter = blank(q, 'ip_filter') ? null : (str(q, 'ip_filter')?.trim() ?? null);
    const problem = filter === null ? undefined : ipFilterProblem(filter);
    if (problem) throw wrong('ip_filter', `ip_filter ${problem}`);
    v.ip_filter = filter || null;
  }
  v.due_at = timeField(q, 'due_at', v.due_at);
  v.lock_at = timeField(q, 'lock_at', v.lock_at);
  v.unlock_at = timeField(q, 'unlock_at', v.unlock_at);
  if (v.unlock_at && v.lock_at && v.unlock_at > v.lock_at) throw wrong('lock_at', 'lock_at must be after unlock_at');
  v.published = boolField(q, 'published', v.published === 1) ? 1 : 0;
  if (given(q, 'notify_of_update')) boolField(q, 'notify_of_update', true);
  return v;
}

function quizInCourse(ctx: MockCtx, course: CourseRow): QuizRow {
  const id = numericId(ctx.path.id);
  const quiz = id === undefined ? undefined : quizById(ctx.db, id);
  // Students do not see unpublished quizzes: to them they do not exist.
  if (!quiz || quiz.course_id !== course.id || (!quiz.published && !canManageContent(ctx, course))) throw notFound();
  return quiz;
}

const listQuizzes: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const term = str(ctx.params, 'search_term')?.trim() || undefined;
  const query = quizzesOfCourseQuery(course.id, { withUnpublished: canManageContent(ctx, course), term });
  return paginate(ctx, keysetSource<QuizRow>(ctx.db, query), (q) => quizJson(ctx, q, course));
};

const getQuiz: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  return quizJson(ctx, quizInCourse(ctx, course), course);
};

const create: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  permit(canManageContent(ctx, course));
  const now = ctx.now();
  const values = quizValues(ctx, course, QUIZ_DEFAULTS, obj(ctx.params, 'quiz'));
  const id = createQuiz(ctx.db, course.id, values, now);
  syncQuizAssignment(ctx.db, quizById(ctx.db, id)!, GRADED.has(values.quiz_type), now);
  return quizJson(ctx, quizById(ctx.db, id)!, course);
};

const update: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const quiz = quizInCourse(ctx, course);
  permit(canManageContent(ctx, course));
  const values = quizValues(ctx, course, quiz, obj(ctx.params, 'quiz'));
  if (quiz.published === 1 && values.published === 0 && hasStudentSubmissions(ctx.db, quiz.id)) {
    throw new HttpError(400, {
      errors: {
        published: [
          { attribute: 'published', type: 'invalid', message: "Can't unpublish if there are student submissions" },
        ],
      },
    });
  }
  const now = ctx.now();
  updateQuiz(ctx.db, quiz.id, values, now);
  syncQuizAssignment(ctx.db, quizById(ctx.db, quiz.id)!, GRADED.has(values.quiz_type), now);
  return quizJson(ctx, quizById(ctx.db, quiz.id)!, course);
};

export const quizzesHandlers = {
  'quizzes.list': listQuizzes,
  'quizzes.get': getQuiz,
  'quizzes.create': create,
  'quizzes.update': update,
};
