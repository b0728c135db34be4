// Values the API defines once, shared by the client's types, the mock and the commands.

export const ENROLLMENT_TYPES = [
  'StudentEnrollment',
  'TeacherEnrollment',
  'TaEnrollment',
  'DesignerEnrollment',
  'ObserverEnrollment',
] as const;
export type EnrollmentType = (typeof ENROLLMENT_TYPES)[number];

/** The enrollment types a term may give dates of their own (all but observers). */
export type TermOverrideType = Exclude<EnrollmentType, 'ObserverEnrollment'>;
export const TERM_OVERRIDE_TYPES: readonly TermOverrideType[] = ENROLLMENT_TYPES.filter(
  (t): t is TermOverrideType => t !== 'ObserverEnrollment',
);

export const ENROLLMENT_STATES = [
  'active',
  'invited',
  'creation_pending',
  'deleted',
  'rejected',
  'completed',
  'inactive',
] as const;
export type EnrollmentState = (typeof ENROLLMENT_STATES)[number];

/** `student` → StudentEnrollment: the short words of `enrollment_type` (a Map: a word is only ever a key). */
export const ENROLLMENT_TYPE_WORDS: ReadonlyMap<string, EnrollmentType> = new Map(
  ENROLLMENT_TYPES.map((t) => [t.replace('Enrollment', '').toLowerCase(), t]),
);

/** A type from its word or its name, in any case (`ta`, `TaEnrollment`); undefined when it is neither. */
export function enrollmentTypeOf(word: string): EnrollmentType | undefined {
  const lower = word.toLowerCase();
  return ENROLLMENT_TYPE_WORDS.get(lower) ?? ENROLLMENT_TYPES.find((t) => t.toLowerCase() === lower);
}

/** Discussion topics: `side_comment` (one level of replies) or `threaded`. */
export const DISCUSSION_TYPES = ['threaded', 'side_comment'] as const;
export type DiscussionType = (typeof DISCUSSION_TYPES)[number];

/** Why a user may not subscribe to a topic (one reason at most). */
const SUBSCRIPTION_HOLDS = [
  'initial_post_required',
  'not_in_group_set',
  'not_in_group',
  'topic_is_announcement',
] as const;
export type SubscriptionHold = (typeof SUBSCRIPTION_HOLDS)[number];
