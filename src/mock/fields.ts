// The rules of a text field, written once for every area: real instances cap string columns at 255
// characters and count them as Ruby does, by code point (an emoji is one character, not the two
// UTF-16 units JavaScript's `length` counts), and refuse a blank required value. Each route keeps its
// own error shape; `textFault` says what is wrong and `checkText` throws it in the common one.
import { invalid } from './kit.js';

/** The length of a string column on real instances. */
const MAX_STRING = 255;

export interface TextRule<Required extends boolean = boolean> {
  readonly max: number;
  readonly required: Required;
}

/** At most `max` characters (255 unless told); `required`: not blank (nor missing) either. */
export function text(rule: { max?: number; required: true }): TextRule<true>;
export function text(rule?: { max?: number; required?: false }): TextRule<false>;
export function text(rule: { max?: number; required?: boolean } = {}): TextRule {
  return { max: rule.max ?? MAX_STRING, required: rule.required ?? false };
}

export interface TextFault {
  type: 'blank' | 'too_long';
  /** The message without the field's name, as real instances word it. */
  message: string;
}

/** What is wrong with a value under a rule, if anything; no value is blank. */
export function textFault(rule: TextRule, value: string | undefined): TextFault | undefined {
  if (value === undefined || value === '')
    return rule.required ? { type: 'blank', message: "can't be blank" } : undefined;
  if (Array.from(value).length > rule.max)
    return { type: 'too_long', message: `is too long (maximum is ${rule.max} characters)` };
  return undefined;
}

/** The value, or the model validation 400 (`{"errors":{model:{field:[…]}}}`) naming what is wrong. */
export function checkText(
  rule: TextRule<true>,
  value: string | undefined,
  model: string | undefined,
  field: string,
): string;
export function checkText<T extends string | undefined>(
  rule: TextRule,
  value: T,
  model: string | undefined,
  field: string,
): T;
export function checkText(
  rule: TextRule,
  value: string | undefined,
  model: string | undefined,
  field: string,
): string | undefined {
  const fault = textFault(rule, value);
  if (fault) throw invalid(model, field, fault.type, fault.message);
  return value;
}
