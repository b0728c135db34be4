// `lms quizzes`: the quizzes of a course; find them, create them, change them, publish and unpublish.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags, type OptionsOf, trueOrFalse } from '../../model/define.js';
import { HIDE_RESULTS, QUIZ_TYPES, SCORING_POLICIES, type QuizFields } from '../../spec/types/quizzes.js';
import { UsageError } from '../../errors.js';

const COLUMNS = [
  'id',
  'title',
  'quiz_type',
  'published',
  'allowed_attempts',
  'time_limit',
  'due_at',
  'question_count',
  'points_possible',
];
const course = { ...contextFlags.course, required: true } as const;

/** The flags of create and update, named after `quiz[...]` in kebab case. */
const fieldFlags = {
  title: { long: 'title', value: 'title', description: 'quiz title', field: { name: 'title' } },
  description: {
    long: 'description',
    value: 'html',
    description: 'description (HTML)',
    field: { name: 'description' },
  },
  quizType: {
    long: 'quiz-type',
    value: 'type',
    description: 'practice_quiz, assignment (graded), graded_survey or survey',
    choices: QUIZ_TYPES,
    field: { name: 'quiz_type' },
  },
  assignmentGroupId: {
    long: 'assignment-group-id',
    value: 'id',
    description: 'assignment group of a graded quiz (default: the top one)',
    type: 'integer',
    field: { name: 'assignment_group_id', type: 'integer' },
  },
  timeLimit: {
    long: 'time-limit',
    value: 'minutes',
    description: 'time limit in minutes ("" for none)',
    type: 'integer',
    field: { name: 'time_limit', type: 'integer', clears: true },
  },
  shuffleAnswers: {
    long: 'shuffle-answers',
    value: 'bool',
    description: 'shuffle the answers (true or false)',
    choices: ['true', 'false'],
    field: { name: 'shuffle_answers' },
  },
  hideResults: {
    long: 'hide-results',
    value: 'when',
    description: 'always, until_after_last_attempt, or "" to show results',
    choices: [...HIDE_RESULTS, ''],
    field: { name: 'hide_results', clears: true },
  },
  showCorrectAnswers: {
    long: 'show-correct-answers',
    value: 'bool',
    description: 'show correct answers (only when results are not hidden)',
    choices: ['true', 'false'],
    field: { name: 'show_correct_answers' },
  },
  allowedAttempts: {
    long: 'allowed-attempts',
    value: 'n',
    description: 'attempts allowed; -1 for unlimited',
    type: 'integer',
    field: { name: 'allowed_attempts', type: 'integer' },
  },
  scoringPolicy: {
    long: 'scoring-policy',
    value: 'policy',
    description: 'keep_highest or keep_latest (with more than one attempt)',
    choices: SCORING_POLICIES,
    field: { name: 'scoring_policy' },
  },
  oneQuestionAtATime: {
    long: 'one-question-at-a-time',
    value: 'bool',
    description: 'show one question at a time',
    choices: ['true', 'false'],
    field: { name: 'one_question_at_a_time' },
  },
  cantGoBack: {
    long: 'cant-go-back',
    value: 'bool',
    description: 'lock questions once answered (with --one-question-at-a-time true)',
    choices: ['true', 'false'],
    field: { name: 'cant_go_back' },
  },
  accessCode: {
    long: 'access-code',
    value: 'code',
    description: 'code students must enter ("" for none)',
    field: { name: 'access_code', clears: true },
  },
  ipFilter: {
    long: 'ip-filter',
    value: 'list',
    description: 'addresses or networks allowed, e.g. 192.168.1.0/24,10.0.0.1 ("" for any)',
    field: { name: 'ip_filter', clears: true },
  },
  dueAt: {
    long: 'due-at',
    value: 'time',
    description: 'due date (ISO 8601; "" for none)',
    field: { name: 'due_at', type: 'time', clears: true },
  },
  lockAt: {
    long: 'lock-at',
    value: 'time',
    description: 'lock date (ISO 8601; "" for none)',
    field: { name: 'lock_at', type: 'time', clears: true },
  },
  unlockAt: {
    long: 'unlock-at',
    value: 'time',
    description: 'unlock date (ISO 8601; "" for none)',
    field: { name: 'unlock_at', type: 'time', clears: true },
  },
} as const;

type FieldOpts = Partial<OptionsOf<typeof fieldFlags>>;

function checkTime(flag: string, v: string | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === '') return null;
  if (Number.isNaN(Date.parse(v))) throw new UsageError(`${flag} is not a date or time: "${v}"`);
  return v;
}

/** The flags given, as `quiz[...]`; the API checks how they go together (and names what it refuses). */
export function quizFields(opts: FieldOpts): QuizFields {
  const fields: QuizFields = {
    title: opts.title,
    description: opts.description,
    quiz_type: opts.quizType as QuizFields['quiz_type'],
    assignment_group_id: opts.assignmentGroupId,
    time_limit: opts.timeLimit,
    shuffle_answers: trueOrFalse(opts.shuffleAnswers),
    hide_results:
      opts.hideResults === undefined ? undefined : ((opts.hideResults || null) as QuizFields['hide_results']),
    show_correct_answers: trueOrFalse(opts.showCorrectAnswers),
    allowed_attempts: opts.allowedAttempts,
    scoring_policy: opts.scoringPolicy as QuizFields['scoring_policy'],
    one_question_at_a_time: trueOrFalse(opts.oneQuestionAtATime),
    cant_go_back: trueOrFalse(opts.cantGoBack),
    access_code: opts.accessCode === undefined ? undefined : opts.accessCode || null,
    ip_filter: opts.ipFilter === undefined ? undefined : opts.ipFilter || null,
    due_at: checkTime('--due-at', opts.dueAt),
    lock_at: checkTime('--lock-at', opts.lockAt),
    unlock_at: checkTime('--unlock-at', opts.unlockAt),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as QuizFields;
}

const listQuizzes = command({
  name: 'list',
  summary: 'List the quizzes of a course (unpublished ones only for those who manage it)',
  aliases: ['ls'],
  routes: ['quizzes.list'],
  columns: COLUMNS,
  options: { course, search: { long: 'search', value: 'term', description: 'partial title' } },
  examples: ['lms quizzes list --course sis_course_id:BIO-101', 'lms quizzes list --course 2 --search exam -o json'],
  async run({ opts, ctx }) {
    return list(
      (await ctx.client()).ops.quizzes.list(
        { course_id: opts.course, search_term: opts.search },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getQuiz = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: 'Show one quiz',
  routes: ['quizzes.get'],
  options: { course },
  examples: ['lms quizzes get 3 --course 2'],
  async run({ args, opts, ctx }) {
    return item(await (await ctx.client()).ops.quizzes.get({ course_id: opts.course, id: args[0] }));
  },
});

const createQuiz = command({
  name: 'create',
  summary: 'Create a quiz (a graded one also gets its assignment)',
  routes: ['quizzes.create'],
  writes: 'create',
  columns: COLUMNS,
  options: {
    course,
    ...fieldFlags,
    title: { ...fieldFlags.title, required: true },
    publish: { long: 'publish', description: 'publish it at once', field: { name: 'published' } },
  },
  examples: [
    'lms quizzes create --course 1 --title "Unit 2 Exam" --quiz-type assignment --time-limit 30 --allowed-attempts ' +
      '2 --scoring-policy keep_latest',
    'lms quizzes create --course 1 --title "Warm-up" --quiz-type practice_quiz --one-question-at-a-time true ' +
      '--cant-go-back true --publish',
  ],
  async run({ opts, ctx }) {
    const quiz = { ...quizFields(opts), ...(opts.publish ? { published: true } : {}) };
    return item(await (await ctx.client()).ops.quizzes.create({ course_id: opts.course, quiz }));
  },
});

const updateQuiz = command({
  name: 'update',
  args: [{ name: 'id' }],
  summary: 'Change a quiz',
  routes: ['quizzes.update'],
  writes: 'update',
  columns: COLUMNS,
  options: {
    course,
    ...fieldFlags,
    notify: { long: 'notify', negated: true, description: "don't tell the course's users about the change" },
  },
  examples: [
    'lms quizzes update 3 --course 2 --time-limit 60 --ip-filter 10.0.0.0/255.0.0.0',
    'lms quizzes update 1 --course 1 --title "Cells check-in" --no-notify',
  ],
  async run({ args, opts, ctx }) {
    const quiz = quizFields(opts);
    if (Object.keys(quiz).length === 0)
      throw new UsageError('nothing to change: give at least one of the quiz flags (see --help)');
    return item(
      await (await ctx.client()).ops.quizzes.update({
        course_id: opts.course,
        id: args[0],
        quiz: { ...quiz, notify_of_update: opts.notify },
      }),
    );
  },
});

function publishVerb(name: 'publish' | 'unpublish') {
  return command({
    name,
    args: [{ name: 'id' }],
    summary:
      name === 'publish' ? 'Publish a quiz' : 'Unpublish a quiz (refused once students have started or submitted it)',
    routes: ['quizzes.update'],
    writes: 'update',
    sets: { published: name === 'publish' },
    columns: COLUMNS,
    options: {
      course,
      notify: { long: 'notify', negated: true, description: "don't tell the course's users about the change" },
    },
    examples: [name === 'publish' ? 'lms quizzes publish 4 --course 2' : 'lms quizzes unpublish 1 --course 1'],
    async run({ args, opts, ctx }) {
      const quiz = { published: name === 'publish', notify_of_update: opts.notify };
      return item(await (await ctx.client()).ops.quizzes.update({ course_id: opts.course, id: args[0], quiz }));
    },
  });
}

export const quizzesVerbs: Verbs = [
  listQuizzes,
  getQuiz,
  createQuiz,
  updateQuiz,
  publishVerb('publish'),
  publishVerb('unpublish'),
] as Verbs;
