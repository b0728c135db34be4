/** An id as a path accepts it: a number, `self`, or an SIS form like `sis_user_id:A123`. */
export type Id = number | string;

/** API objects carry more fields than the ones a client names; the rest pass through untouched. */
export type ApiObject = Record<string, unknown>;
