import { STATUS_ACTIVE } from '../../db/reference/enumerations.ts';

export type StatusEntry = { status_id: number; status_name: string | null };

/** Spec §4: the chosen status is the one with id 1, otherwise the first with a name. */
export function chooseStatus(statuses: StatusEntry[]): StatusEntry | undefined {
  return statuses.find((s) => s.status_id === STATUS_ACTIVE) ?? statuses.find((s) => !!s.status_name);
}

/** Spec §4: a company is shown as active when its status id is 1, otherwise inactive. */
export function isActive(statusId: number | null | undefined): boolean {
  return statusId === STATUS_ACTIVE;
}
