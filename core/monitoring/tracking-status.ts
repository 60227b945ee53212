import { fieldProblem } from '../user-data/user-data-errors.ts';

// A tracking is active (reported on) or paused (kept, not reported on): DESIGN.md decides the
// values the spec leaves unshown (spec §4 "Tracking tasks have a status that can be changed").

export const TRACKING_STATUSES = ['active', 'paused'] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export function isTrackingStatus(value: unknown): value is TrackingStatus {
  return value === 'active' || value === 'paused';
}

/** A status from a form or body, or a 400 naming the field. */
export function trackingStatusOf(value: unknown): TrackingStatus {
  if (isTrackingStatus(value)) return value;
  throw fieldProblem('status', 'invalid', 'status must be active or paused.');
}

/**
 * The change cursor a new tracking starts from: the newest change recorded, so that its first
 * report holds what changes after it was made (nothing from before).
 */
export const NEWEST_CHANGE_SQL = '(select coalesce(max(id), 0) from company_changes)';
