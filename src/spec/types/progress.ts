// A Progress: how a background job the API started (bulk grading, async messages, batch updates) is doing.
import type { ApiObject } from './common.js';

type ProgressState = 'queued' | 'running' | 'completed' | 'failed';

export interface Progress extends ApiObject {
  id: number;
  context_id: number;
  context_type: string;
  user_id: number | null;
  tag: string;
  /** A percentage, 0–100. */
  completion: number | null;
  workflow_state: ProgressState;
  created_at: string;
  updated_at: string;
  message: string | null;
  /** Absolute URL of this Progress. */
  url: string;
  /** Present once the job is past `queued`, when it reports anything. */
  results?: unknown;
}
